"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Live events invalidate what changed; no background polling needed.
          queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 2 },
        },
      }),
  );
  // The whole page is interactive from here on (the root's effect runs after every child's): tests and
  // scripts wait for this mark instead of acting on server-rendered markup React has not taken over yet.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
