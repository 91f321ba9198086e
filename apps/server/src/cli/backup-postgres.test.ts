// `gatehouse backup` and `restore` on PostgreSQL (issue 23), as processes: pg_dump of a live database, pg_restore
// into a fresh empty one, and the restored copy verified by the CLI and read back. In the PostgreSQL project only
// (vitest.config.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, inject, it } from "vitest";
import { adminQuery, withDatabase } from "../testing/test-database.ts";

const BIN = fileURLToPath(new URL("../../bin/gatehouse.mjs", import.meta.url));
const template = inject("testDbTemplate");
if (template.kind !== "postgres")
  throw new Error("The backup suite runs in the postgres project (vitest.config.ts)");
const dir = mkdtempSync(join(tmpdir(), "gatehouse-backup-"));
const made: string[] = [];

type Result = { code: number | null; stdout: string; stderr: string };

function cli(args: string[], databaseUrl: string): Promise<Result> {
  const { GATEHOUSE_ADMIN_KEY: _key, ...parent } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        ...parent,
        DATABASE_URL: databaseUrl,
        GATEHOUSE_SECRET: "backup-test-secret-0123456789abcdef0123456789",
        GATEHOUSE_DEMO_PROJECT: "off",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}
const json = <T>(result: Result): T => {
  expect(result, result.stderr).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout) as T;
};

afterAll(async () => {
  for (const name of made)
    await adminQuery(template.adminUrl, `drop database if exists ${name} with (force)`);
  rmSync(dir, { recursive: true, force: true });
});

describe("PostgreSQL backup and restore", () => {
  it("dumps a database and restores it into a fresh one, verified, with the same projects", async () => {
    if (template.kind !== "postgres") return;
    const database = async (copy: boolean) => {
      const name = `gatehouse_backup_${randomBytes(5).toString("hex")}`;
      made.push(name);
      await adminQuery(
        template.adminUrl,
        copy ? `create database ${name} template ${template.templateName}` : `create database ${name}`,
      );
      return withDatabase(template.adminUrl, name);
    };
    const source = await database(true);
    const created = json<{ id: string }>(
      await cli(["projects", "create", "--name", "Kept by the backup", "--json"], source),
    );
    const before = json<{ id: string }[]>(await cli(["projects", "list", "--json"], source));

    const file = join(dir, "gatehouse.dump");
    json(await cli(["backup", file, "--json"], source));
    expect(statSync(file).size).toBeGreaterThan(1000);

    const target = await database(false);
    const restored = json<{ migrations: number; projects: number }>(
      await cli(["restore", file, "--json"], target),
    );
    expect(restored.projects).toBe(before.length);
    expect(restored.migrations).toBeGreaterThan(19);
    const after = json<{ id: string }[]>(await cli(["projects", "list", "--json"], target));
    expect(after.map((p) => p.id).sort()).toEqual(before.map((p) => p.id).sort());
    expect(after.map((p) => p.id)).toContain(created.id);

    // Not a backup: refused with the bad-file exit code, nothing claimed restored.
    const bogus = await cli(["restore", BIN, "--json"], await database(false));
    expect(bogus.code).not.toBe(0);
  }, 240_000);
});
