// A plain Vite + React app made on Stack's published @stackframe/react, as Stack's React docs set one up; the
// browser suite e2e/browser/stack-react.test.ts builds it and serves what it built against a Gatehouse server.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // Stack's UI is one large bundle: its size is not what this app is about.
  build: { chunkSizeWarningLimit: 10_000 },
});
