// Every `gatehouse` command run as a process, as an operator runs it, against a real server started by
// `gatehouse start` on a PGlite data directory: output, --json shapes and exit codes (docs/cli.md) are checked.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILED_CLI_ENV } from "../testing/compiled-server.ts";
import { freePort, type RunningServer, startServer } from "../testing/server-process.ts";

const BIN = fileURLToPath(new URL("../../bin/gatehouse.mjs", import.meta.url));
// The installed bin runs the source through tsx, about 2 s of CPU per command; the first test runs it, the rest the
// run's compiled copy of the same source (testing/compiled-server.ts) when there is one.
const COMMAND = process.env[COMPILED_CLI_ENV] ?? BIN;
const dir = mkdtempSync(join(tmpdir(), "gatehouse-cli-"));
const dataDir = join(dir, "data-dir");
let port = 0;
let server: RunningServer | undefined;
let project: { id: string; super_secret_admin_key: string; publishable_client_key: string };

type Result = { code: number | null; stdout: string; stderr: string };

function cli(args: string[], env: Record<string, string> = {}, command = COMMAND): Promise<Result> {
  const { DATABASE_URL: _db, GATEHOUSE_ADMIN_KEY: _key, ...parent } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [command, ...args], {
      env: { ...parent, GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEMO_PROJECT: "off", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const remote = () => ({
  GATEHOUSE_URL: `http://localhost:${port}`,
  GATEHOUSE_PROJECT_ID: project.id,
  GATEHOUSE_ADMIN_KEY: project.super_secret_admin_key,
});
const json = <T>(result: Result): T => {
  expect(result, result.stderr).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout) as T;
};

beforeAll(async () => {
  // Database commands first: PGlite has one opener at a time, and the server is not running yet.
  const migrated = json<{ migrations: number }>(await cli(["migrate", "--json"]));
  expect(migrated.migrations).toBeGreaterThan(10);
  port = await freePort();
  server = await startServer(
    { GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEMO_PROJECT: "off", PORT: String(port) },
    60_000,
    { cli: [COMMAND] },
  );
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("gatehouse CLI", () => {
  it("prints help for every command and exits 2 on usage errors", async () => {
    const help = await cli(["--help"], {}, BIN);
    expect(help.code).toBe(0);
    for (const command of [
      "start",
      "migrate",
      "status",
      "projects",
      "keys",
      "users",
      "config",
      "backup",
      "restore",
      "import",
      "export",
      "emails",
      "signing-keys",
    ])
      expect(help.stdout).toContain(command);
    const sub = await cli(["users", "create", "--help"]);
    expect(sub.stdout).toContain("--email <email>");
    expect((await cli(["no-such-command"], {}, BIN)).code).toBe(2);
    expect((await cli(["users", "list"], { GATEHOUSE_URL: "http://localhost:1" })).code).toBe(2);
    // Each command is a process start through tsx: seconds each on a loaded machine.
  }, 120_000);

  it("refuses to open a data directory the server holds", async () => {
    const held = await cli(["projects", "list"]);
    expect(held.code).toBe(1);
    expect(held.stderr).toContain("data directory");
  }, 60_000);

  it("works against the running server: status, users, keys, config, e-mails, import", async () => {
    // A project for the test, made with the internal project's admin key from the data directory.
    const internal = JSON.parse(readFileSync(join(dataDir, "internal-keys.json"), "utf8")) as {
      superSecretAdminKey: string;
    };
    expect(internal.superSecretAdminKey).toMatch(/^sak_/);
    project = {
      id: "internal",
      super_secret_admin_key: internal.superSecretAdminKey,
      publishable_client_key: "",
    };

    const status = json<{ health: string; project: string }>(await cli(["status", "--json"], remote()));
    expect(status).toMatchObject({
      health: "ok",
      project: "internal",
      version: JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")).version,
      migrations_pending: "none",
    });
    expect((status as unknown as { migrations_applied: number }).migrations_applied).toBeGreaterThan(19);
    expect((await cli(["status"], remote())).stdout).toMatch(/health\s+ok/);

    const created = json<{ id: string; primary_email: string }>(
      await cli(
        [
          "users",
          "create",
          "--email",
          "cli@example.com",
          "--password",
          "cli-password-1",
          "--verified",
          "--json",
        ],
        remote(),
      ),
    );
    expect(created.primary_email).toBe("cli@example.com");
    expect(
      json<{ id: string }[]>(await cli(["users", "list", "--json"], remote())).map((u) => u.id),
    ).toContain(created.id);
    expect((await cli(["users", "list"], remote())).stdout).toMatch(/ID\s+EMAIL.*\n.*cli@example.com/);
    expect(json<{ id: string }>(await cli(["users", "get", created.id, "--json"], remote())).id).toBe(
      created.id,
    );
    const missing = await cli(["users", "get", "00000000-0000-4000-8000-000000000000"], remote());
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("USER_NOT_FOUND");
    expect((await cli(["users", "delete", created.id], remote())).stdout).toContain(
      `Deleted user ${created.id}`,
    );

    const key = json<{ id: string; publishable_client_key: string }>(
      await cli(["keys", "create", "--description", "ci", "--json"], remote()),
    );
    expect(key.publishable_client_key).toMatch(/^pck_/);
    expect((await cli(["keys", "list"], remote())).stdout).toContain("ci");
    expect(
      json<{ manually_revoked_at_millis?: number }>(await cli(["keys", "revoke", key.id, "--json"], remote()))
        .manually_revoked_at_millis,
    ).toBeGreaterThan(0);

    const configFile = join(dir, "project.yaml");
    expect((await cli(["config", "export", configFile], remote())).code).toBe(0);
    const yaml = readFileSync(configFile, "utf8");
    expect(yaml).toContain("sign_up_enabled: true");
    expect((await cli(["config", "apply", configFile], remote())).stdout).toContain("No changes.");
    writeFileSync(configFile, yaml.replace("sign_up_enabled: true", "sign_up_enabled: false"));
    const check = await cli(["config", "apply", "--check", configFile], remote());
    expect(check.code).toBe(6);
    expect(check.stdout).toContain("config.sign_up_enabled: true -> false");
    expect((await cli(["config", "apply", configFile], remote())).stdout).toContain("Applied 1 change(s).");
    expect((await cli(["config", "apply", configFile], remote())).stdout).toContain("No changes.");
    writeFileSync(configFile, yaml);
    expect((await cli(["config", "apply", configFile], remote())).code).toBe(0);

    expect(Array.isArray(json<unknown[]>(await cli(["emails", "list", "--json"], remote())))).toBe(true);

    const hash = await bcrypt.hash("imported-password-1", 8);
    const file = join(dir, "users.ndjson");
    writeFileSync(
      file,
      `${JSON.stringify({ id: "ext-1", email: "imported@example.com", email_verified: true, password_hash: hash })}\n${JSON.stringify({ id: "ext-2", email: "bad" })}\n`,
    );
    const imported = await cli(["import", "generic", file], remote());
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("Imported 1 of 2 record(s); 0 already there; 1 skipped.");
    expect(imported.stdout).toContain("line 2: email");
    expect(imported.stderr).toMatch(/100% 2\/2 .*\/s {2}ETA/);
    const signIn = await fetch(`http://localhost:${port}/api/v1/auth/password/sign-in`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-access-type": "client",
        "x-stack-project-id": "internal",
        "x-stack-publishable-client-key": JSON.parse(
          readFileSync(join(dataDir, "internal-keys.json"), "utf8"),
        ).publishableClientKey,
      },
      body: JSON.stringify({ email: "imported@example.com", password: "imported-password-1" }),
    });
    expect(signIn.status).toBe(200);
    expect(
      json<{ existing: number }>(await cli(["import", "generic", file, "--json"], remote())).existing,
    ).toBe(1);
    const broken = join(dir, "broken.ndjson");
    writeFileSync(broken, `${JSON.stringify({ id: "x", email: "x@example.com" })}\n{"id":\n`);
    const refused = await cli(["import", "generic", broken], remote());
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain("line 2: malformed JSON");

    const before = json<{ kid: string; audience: string; state: string }[]>(
      await cli(["signing-keys", "list", "--json"], remote()),
    );
    expect(before.map((key) => key.state)).toEqual(["current", "current", "current"]);
    const rotate = await cli(["signing-keys", "rotate", "--json"], remote());
    expect(rotate.code, rotate.stderr).toBe(0);
    const after = json<{ kid: string; state: string }[]>(rotate);
    expect(after).toHaveLength(6);
    expect(after.filter((key) => key.state === "pending")).toHaveLength(3);
    for (const key of before)
      expect(after).toContainEqual(expect.objectContaining({ kid: key.kid, state: "current" }));
    const listed = await cli(["signing-keys", "list"], remote());
    expect(listed.stdout).toMatch(/ default +pending +signs from \d{4}-/);
    expect(
      (await cli(["status"], { ...remote(), GATEHOUSE_URL: `http://127.0.0.1:${await freePort()}` })).code,
    ).toBe(4);
  }, 400_000);

  it("backs up PGlite while the server runs: the server makes the copy, which restores with the latest data", async () => {
    const backup = join(dir, "live-backup.tgz");
    // No admin key given: the command reads the internal project's key from the data directory it shares.
    const made = json<{ made_by: string; projects: number; migrations: number }>(
      await cli(["backup", backup, "--json"], { GATEHOUSE_URL: `http://localhost:${port}` }),
    );
    expect(made).toMatchObject({ made_by: "server" });
    expect(made.migrations).toBeGreaterThan(10);
    const elsewhere = { GATEHOUSE_DATA_DIR: join(dir, "restored-live") };
    expect(json<{ projects: number }>(await cli(["restore", backup, "--json"], elsewhere)).projects).toBe(
      made.projects,
    );
    // The user imported a moment ago through the running server is in the copy.
    const exported = join(dir, "live-export.ndjson");
    expect((await cli(["export", "--project", "internal", exported], elsewhere)).code).toBe(0);
    expect(readFileSync(exported, "utf8")).toContain('"imported@example.com"');
    // A key that is not the internal project's admin key gets nothing: the copy holds every project.
    const refused = await cli(["backup", join(dir, "refused.tgz")], {
      GATEHOUSE_URL: `http://localhost:${port}`,
      GATEHOUSE_ADMIN_KEY: "sak_not_the_internal_projects_key",
    });
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/INVALID_SUPER_SECRET_ADMIN_KEY/);
  }, 300_000);

  it("works on the database once the server stopped: projects, export with hashes, backup and restore", async () => {
    await server?.stop();
    const made = json<{ id: string; super_secret_admin_key: string }>(
      await cli(["projects", "create", "--name", "From the CLI", "--json"]),
    );
    expect(made.super_secret_admin_key).toMatch(/^sak_/);
    expect(json<{ id: string }[]>(await cli(["projects", "list", "--json"])).map((p) => p.id)).toContain(
      made.id,
    );

    const exported = join(dir, "export.ndjson");
    const exportRun = await cli(["export", "--project", "internal", exported]);
    expect(exportRun.code, exportRun.stderr).toBe(0);
    const records = readFileSync(exported, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { email: string; password_hash: string });
    // The imported user signed in once: the bcrypt hash became argon2id, and the export carries it.
    expect(records.find((r) => r.email === "imported@example.com")?.password_hash).toMatch(/^\$argon2id\$/);

    const backup = join(dir, "backup.tgz");
    expect(
      json<{ projects: number }>(await cli(["backup", backup, "--json"])).projects,
    ).toBeGreaterThanOrEqual(2);
    const elsewhere = { GATEHOUSE_DATA_DIR: join(dir, "restored") };
    const restored = json<{ projects: number; migrations: number }>(
      await cli(["restore", backup, "--json"], elsewhere),
    );
    expect(restored.projects).toBeGreaterThanOrEqual(2);
    expect((await cli(["restore", backup], elsewhere)).code).toBe(2);
    writeFileSync(join(dir, "junk.tgz"), "not a backup");
    expect((await cli(["restore", join(dir, "junk.tgz"), "--force"], elsewhere)).code).toBe(5);
  }, 300_000);
});
