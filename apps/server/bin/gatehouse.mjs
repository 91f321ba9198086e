#!/usr/bin/env node
// The `gatehouse` bin: runs src/cli/main.ts through tsx with the workspace-source condition, as `npm start` does.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const tsx = require.resolve("tsx");
const main = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const result = spawnSync(
  process.execPath,
  ["--conditions=gatehouse-source", "--import", tsx, main, ...process.argv.slice(2)],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
