// What the suites of a run can share, made once per run instead of once per file: the `vite build`s of the dashboard
// and the demo app (the two workers built the same bundles up to eighteen times a run), and the PGlite data directory
// seeded from the template that server processes start from (each copies it). The first file that asks builds into
// the run's folder (global-setup.ts); the others, in either worker, wait for it. A file run alone builds what it
// needs itself. Nothing writes into a shared build.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inject } from "vitest";

/** How long a file waits for another worker's build (the hooks that ask allow 180 s). */
const WAIT_MS = 170_000;

/**
 * The folder of the run's build `name`, made by `build(outDir)` the first time any file of the run asks for it. The
 * lock is a directory (mkdir is atomic); the builder leaves `done`, or `failed` with the error for the waiters.
 */
export async function sharedBuild(name: string, build: (outDir: string) => Promise<void>): Promise<string> {
  const base = join(inject("testRunFolder"), name);
  const outDir = join(base, "build");
  const [done, failed] = [join(base, "done"), join(base, "failed")];
  const mine = await mkdir(base).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return false;
      throw error;
    },
  );
  if (mine) {
    try {
      await build(outDir);
    } catch (error) {
      await writeFile(failed, String(error instanceof Error ? (error.stack ?? error.message) : error));
      throw error;
    }
    await writeFile(done, "");
    return outDir;
  }
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(done)) {
    if (existsSync(failed))
      throw new Error(`The shared ${name} build failed:\n${await readFile(failed, "utf8")}`);
    if (Date.now() > deadline) throw new Error(`The shared ${name} build took more than ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return outDir;
}
