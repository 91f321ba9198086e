// `vite build` of one of our apps (the demo, the dashboard) in a process of its own with NODE_ENV=production: a
// caller's NODE_ENV ("test" under a test runner) would otherwise give React's development build and JSX runtime.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export function viteBuild(options: {
  root: string;
  outDir: string;
  env?: Record<string, string>;
}): Promise<void> {
  const viteBin = join(
    dirname(createRequire(import.meta.url).resolve("vite/package.json")),
    "bin",
    "vite.js",
  );
  const child = spawn(
    process.execPath,
    [viteBin, "build", "--logLevel", "error", "--outDir", options.outDir, "--emptyOutDir"],
    {
      cwd: options.root,
      env: { ...process.env, ...options.env, NODE_ENV: "production" },
      stdio: ["ignore", "inherit", "pipe"],
    },
  );
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`vite build in ${options.root} failed (exit ${code}):\n${errors}`)),
    );
  });
}
