"use client";

import { TechnicalDetails } from "@/components/ui/technical-details";
import * as ui from "@/components/ui/styles";

export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className={ui.errorBox} role="alert">
      <h1 className="text-xl font-[650]">This page could not be shown</h1>
      <p>
        <strong>What happened: </strong>the server failed while preparing this page.
      </p>
      <p>
        <strong>Why: </strong>usually the database is unreachable or restarting. The details are in the web process log.
      </p>
      <p>
        <button type="button" className={ui.button("primary")} onClick={reset}>
          Try again
        </button>
      </p>
      <TechnicalDetails entries={[["digest", error.digest ?? "none"]]} />
    </div>
  );
}
