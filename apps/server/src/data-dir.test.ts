// The data directory: the pid lock file (held, refused while a live process holds it, taken over when stale) and
// the generated server secret and internal keys, created once with mode 600 and read back unchanged.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acquireLock,
  DataDirLockedError,
  ensureDataDir,
  loadGeneratedInternalKeys,
  loadServerSecret,
} from "./data-dir.ts";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatehouse-data-dir-test-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has run and exited. */
async function deadPid(): Promise<number> {
  const child = spawn("true", { stdio: "ignore" });
  const pid = child.pid;
  if (pid === undefined) throw new Error("Could not start `true`");
  if (child.exitCode === null) await once(child, "exit");
  return pid;
}

/** A live process to hold a lock; killed by the caller. */
function liveChild(): ChildProcess & { pid: number } {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  if (child.pid === undefined) throw new Error("Could not start `sleep`");
  return child as ChildProcess & { pid: number };
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe("ensureDataDir", () => {
  it("creates nested directories with mode 700 and accepts an existing one", () => {
    const nested = join(dir, "a", "b");
    ensureDataDir(nested);
    expect(statSync(nested).isDirectory()).toBe(true);
    expect(mode(nested)).toBe(0o700);
    expect(() => ensureDataDir(nested)).not.toThrow();
  });
});

describe("acquireLock", () => {
  it("writes our pid to gatehouse.lock and removes it on release", () => {
    const file = join(dir, "gatehouse.lock");
    const release = acquireLock(dir);
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(file)).toBe(false);
  });

  it("can be taken again after release", () => {
    acquireLock(dir)();
    const release = acquireLock(dir);
    expect(readFileSync(join(dir, "gatehouse.lock"), "utf8")).toBe(String(process.pid));
    release();
  });

  it("refuses a directory locked by another live process, naming its pid and the directory", async () => {
    const child = liveChild();
    try {
      const file = join(dir, "gatehouse.lock");
      writeFileSync(file, String(child.pid));
      let caught: unknown;
      try {
        acquireLock(dir);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DataDirLockedError);
      const message = (caught as Error).message;
      expect(message).toContain(`pid ${child.pid}`);
      expect(message).toContain(dir);
      // The holder's lock stays in place.
      expect(readFileSync(file, "utf8")).toBe(String(child.pid));
    } finally {
      child.kill();
      if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
    }
  });

  it("refuses a lock held by the parent process", () => {
    writeFileSync(join(dir, "gatehouse.lock"), String(process.ppid));
    expect(() => acquireLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireLock(dir)).toThrow(`pid ${process.ppid}`);
  });

  it("takes over a lock left by a process that has exited", async () => {
    const pid = await deadPid();
    const file = join(dir, "gatehouse.lock");
    writeFileSync(file, String(pid));
    const release = acquireLock(dir);
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(file)).toBe(false);
  });

  it("takes over an old lock file without a pid in it", () => {
    const file = join(dir, "gatehouse.lock");
    writeFileSync(file, "garbage");
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const release = acquireLock(dir);
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
    release();
  });

  it("treats a brand-new lock file without a pid as held (its owner is still writing it)", () => {
    writeFileSync(join(dir, "gatehouse.lock"), "");
    expect(() => acquireLock(dir)).toThrow(DataDirLockedError);
  });

  it("releases only its own lock", () => {
    const file = join(dir, "gatehouse.lock");
    const release = acquireLock(dir);
    writeFileSync(file, "999999");
    release();
    expect(readFileSync(file, "utf8")).toBe("999999");
  });

  it("throws the file-system error when the directory does not exist", () => {
    expect(() => acquireLock(join(dir, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});

describe("loadServerSecret", () => {
  it("creates a 64-hex secret with mode 600 and returns it again on the next call", () => {
    const secret = loadServerSecret(dir);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const file = join(dir, "secret");
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe(`${secret}\n`);
    expect(loadServerSecret(dir)).toBe(secret);
    expect(mode(file)).toBe(0o600);
  });

  it("generates a different secret for another directory", () => {
    const other = mkdtempSync(join(tmpdir(), "gatehouse-data-dir-test-"));
    try {
      expect(loadServerSecret(other)).not.toBe(loadServerSecret(dir));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("reads an existing secret file, trimmed", () => {
    writeFileSync(join(dir, "secret"), "  operator-provided-secret-value  \n");
    expect(loadServerSecret(dir)).toBe("operator-provided-secret-value");
  });
});

describe("loadGeneratedInternalKeys", () => {
  it("creates internal-keys.json with mode 600 and three well-formed keys, the same on the next call", () => {
    const keys = loadGeneratedInternalKeys(dir);
    expect(keys).toEqual({
      publishableClientKey: expect.stringMatching(/^pck_[0-9a-hjkmnp-tv-z]{45}$/),
      secretServerKey: expect.stringMatching(/^ssk_[0-9a-hjkmnp-tv-z]{45}$/),
      superSecretAdminKey: expect.stringMatching(/^sak_[0-9a-hjkmnp-tv-z]{45}$/),
    });
    const file = join(dir, "internal-keys.json");
    expect(mode(file)).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(keys);
    expect(loadGeneratedInternalKeys(dir)).toEqual(keys);
  });

  it("does not share the secret file", () => {
    const keys = loadGeneratedInternalKeys(dir);
    const secret = loadServerSecret(dir);
    expect(Object.values(keys)).not.toContain(secret);
    expect(loadGeneratedInternalKeys(dir)).toEqual(keys);
    expect(loadServerSecret(dir)).toBe(secret);
  });
});
