#!/usr/bin/env node
// The `gatehouse` bin: runs src/cli/main.ts through tsx with the workspace-source condition, as `npm start` does,
// passing signals on so that `gatehouse start` stops like the server itself.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const tsx = require.resolve("tsx");
const main = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const child = spawn(
  process.execPath,
  ["--conditions=gatehouse-source", "--import", tsx, main, ...process.argv.slice(2)],
  { stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
