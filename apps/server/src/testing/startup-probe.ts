// Run by startup-imports.test.ts under import-recorder.mjs: starts the server as main.ts does, waits for the start's
// last imports to be reported, and prints the npm packages the process loaded, one JSON line.
await import("../main.ts");
await new Promise((resolve) => setTimeout(resolve, 1000));
const imported = (globalThis as unknown as { __gatehouseImported: Set<string> }).__gatehouseImported;
const packages = new Set<string>();
for (const url of imported) {
  const path = url.split("/node_modules/")[1];
  if (!path) continue;
  const [scope = "", name = ""] = path.split("/");
  packages.add(scope.startsWith("@") ? `${scope}/${name}` : scope);
}
process.stdout.write(`${JSON.stringify({ packages: [...packages].sort() })}\n`);
process.exit(0);
