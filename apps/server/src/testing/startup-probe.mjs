// Run by the start-up imports tests under import-recorder.mjs: starts the server from the entry file given (main.ts
// through tsx, or a built artifact's server.js with plain node), waits for the start's last imports to be reported,
// and prints the npm packages the process loaded, one JSON line.
import { pathToFileURL } from "node:url";

const entry = process.argv[2];
if (!entry) throw new Error("startup-probe.mjs needs the server's entry file");
await import(pathToFileURL(entry).href);
await new Promise((resolve) => setTimeout(resolve, 1000));
const packages = new Set();
for (const url of globalThis.__gatehouseImported) {
  const path = url.split("/node_modules/")[1];
  if (!path) continue;
  const [scope = "", name = ""] = path.split("/");
  packages.add(scope.startsWith("@") ? `${scope}/${name}` : scope);
}
process.stdout.write(`${JSON.stringify({ packages: [...packages].sort() })}\n`);
process.exit(0);
