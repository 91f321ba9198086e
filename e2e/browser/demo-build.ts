// The demo app for one server and project, served from a copy of the run's one build of it (e2e/shared-builds.ts):
// apps/demo/serve.ts builds it per call because the server's address and the project are baked into the bundle, which
// cost each browser suite a `vite build`. The shared build bakes in placeholders instead; each copy swaps them for the
// suite's own values: the copy holds the bundle a build for those values gives, byte for byte, under the file names of
// the placeholders' build (compared when this was written; a placeholder missing from the bundle fails the copy).
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { buildDemo, type RunningDemo, serveDemo } from "../../apps/demo/serve.ts";
import { sharedBuild } from "../shared-builds.ts";

/** What the shared build holds in place of the settings: strings that occur nowhere else in the bundle. */
const PLACEHOLDERS = {
  gatehouseUrl: "http://gatehouse-url.placeholder.invalid",
  projectId: "gatehouse-project-id-placeholder",
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/**
 * Copies the shared build into `outDir` with the placeholders replaced by `settings` (no publishable key: the suites'
 * demos have none). Fails if a placeholder is missing from the build, or a value would need escaping in the bundle.
 */
export async function copyDemoBuild(outDir: string, settings: { gatehouseUrl: string; projectId: string }) {
  const template = await sharedBuild("demo", (dir) => buildDemo(dir, PLACEHOLDERS));
  const swaps = Object.entries(PLACEHOLDERS).map(([key, placeholder]) => {
    const value = settings[key as keyof typeof PLACEHOLDERS];
    if (!/^[\w:/.-]+$/.test(value)) throw new Error(`The demo's ${key} would need escaping: ${value}`);
    return { placeholder, value, found: 0 };
  });
  for (const file of await filesUnder(template)) {
    let content = await readFile(join(template, file));
    if (/\.(js|html|css)$/.test(file)) {
      let text = content.toString("utf8");
      for (const swap of swaps) {
        const parts = text.split(swap.placeholder);
        swap.found += parts.length - 1;
        text = parts.join(swap.value);
      }
      content = Buffer.from(text);
    }
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    await writeFile(join(outDir, file), content);
  }
  const missing = swaps.filter((s) => s.found === 0).map((s) => s.placeholder);
  if (missing.length) throw new Error(`The shared demo build lacks ${missing.join(", ")}`);
}

/** startDemo of apps/demo/serve.ts, from a copy of the run's shared build instead of a build of its own. */
export async function startDemo({
  port,
  ...settings
}: {
  port: number;
  gatehouseUrl: string;
  projectId: string;
}): Promise<RunningDemo> {
  return serveDemo(port, settings, (outDir) => copyDemoBuild(outDir, settings));
}
