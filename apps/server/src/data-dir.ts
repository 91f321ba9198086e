// The data directory (`./.gatehouse` by default): the embedded database, the generated server secret and the
// generated keys of the seeded projects (internal; demo under `npm start`). Files holding secrets have mode 600.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateApiKey, generateServerSecret } from "./crypto/random.ts";

export class DataDirLockedError extends Error {}

export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else: still a live holder.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite does not lock its data directory, and two processes writing one corrupt it, so we hold a lock file
 * with our pid. A lock left by a dead process is taken over. Returns the release function.
 */
export function acquireLock(dir: string): () => void {
  const file = join(dir, "gatehouse.lock");
  const release = () => {
    // Only remove our own lock: after a takeover the file may belong to another process.
    if (existsSync(file) && readFileSync(file, "utf8") === String(process.pid)) rmSync(file, { force: true });
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(file, "utf8"), 10);
      // An unreadable pid in a brand-new file means another process is between creating and writing it.
      const beingWritten = !Number.isInteger(holder) && Date.now() - statSync(file).mtimeMs < 5000;
      if (beingWritten || (holder !== process.pid && isRunning(holder))) {
        throw new DataDirLockedError(
          `Another Gatehouse server (pid ${Number.isInteger(holder) ? holder : "unknown"}) is using the data directory ${dir}. ` +
            "Stop it first, or set GATEHOUSE_DATA_DIR (or DATABASE_URL) to run a second server.",
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}.`);
}

/** Reads a secret file, creating it with `generate()` on first use. */
function readOrCreate(file: string, generate: () => string): string {
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const value = generate();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: "wx" });
  return value;
}

export function loadServerSecret(dir: string): string {
  return readOrCreate(join(dir, "secret"), generateServerSecret);
}

export type ProjectKeys = {
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
};
export type InternalKeys = ProjectKeys;

/** A seeded project's keys, generated at first start into `file`, so every restart prints and accepts the same ones. */
function loadGeneratedKeys(file: string): ProjectKeys {
  const text = readOrCreate(file, () =>
    JSON.stringify({
      publishableClientKey: generateApiKey("pck"),
      secretServerKey: generateApiKey("ssk"),
      superSecretAdminKey: generateApiKey("sak"),
    }),
  );
  return JSON.parse(text) as ProjectKeys;
}

export const loadGeneratedInternalKeys = (dir: string) => loadGeneratedKeys(join(dir, "internal-keys.json"));
/** The demo project's keys (`npm start`), kept apart from the internal ones: they administer only the demo. */
export const loadGeneratedDemoKeys = (dir: string) => loadGeneratedKeys(join(dir, "demo-keys.json"));
