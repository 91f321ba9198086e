// A Next.js app made on Stack's published @stackframe/stack, set up as Stack's docs and init-stack set one up; the
// browser suite e2e/browser/stack-next.test.ts builds it with `next build` and runs it with `next start`.
import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // dist/, not .next/: the repository's git and biome settings already leave dist/ out.
  distDir: "dist",
};

export default nextConfig;
