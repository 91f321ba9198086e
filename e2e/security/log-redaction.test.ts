// Issue 15 item 5, black-box: the real server process's log over a whole session (password sign-up and sign-in,
// refresh, reset codes, an API key, a query that fails) holds none of the secrets the session handled. The one
// documented exception: with no SMTP server, a project that is not in production mode has its e-mail links (and
// so their codes) logged as the development inbox (README); a production-mode project's are not.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openPglite, openPostgres } from "@gatehouse/server/db/client";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiCaller, type Call } from "../support.ts";

const PASSWORD = "log redaction password 1";
const EMAIL = "log-redaction@example.com";
const TRIPWIRE = "log-redaction-tripwire";
const METADATA_SECRET = "sk_live_e2e_0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const DOMAIN = "https://app.example.com";

let server: RunningServer;
let call: Call;
let dataDir: string;
let databaseName: string | undefined;

/**
 * Migrates the server's database before the server starts and adds a check constraint that refuses any user row
 * whose metadata holds the trip-wire: a real query then fails inside the server, with the metadata among its
 * parameters and the whole row, password hash included, in PostgreSQL's detail.
 */
async function prepareDatabase(env: Record<string, string>): Promise<void> {
  const database: Database = env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL)
    : await openPglite({ dataDir: join(dataDir, "data") });
  try {
    await database.migrate();
    await database.db.execute(
      sql.raw(
        `alter table users add constraint log_redaction_tripwire check (coalesce(client_metadata::text, '') not like '%${TRIPWIRE}%')`,
      ),
    );
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "gatehouse-log-redaction-"));
  const env: Record<string, string> = {
    PORT: String(await freePort()),
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_DEMO_PROJECT: "off",
  };
  const template = inject("testDbTemplate");
  if (template.kind === "postgres") {
    databaseName = `gatehouse_log_redaction_${process.pid}_${Date.now()}`;
    await adminQuery(template.adminUrl, `create database ${databaseName}`);
    env.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  }
  await prepareDatabase(env);
  server = await startServer(env);
  call = apiCaller(() => server);
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  const template = inject("testDbTemplate");
  if (databaseName && template.kind === "postgres") {
    await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
  }
});

/** The internal project's headers for an access type, with the keys the server printed. */
function internal(type: "client" | "admin"): Record<string, string> {
  const [name, key] =
    type === "client"
      ? ["x-stack-publishable-client-key", server.keys.pck]
      : ["x-stack-super-secret-admin-key", server.keys.sak];
  return { "x-stack-access-type": type, "x-stack-project-id": "internal", [name]: key };
}

type LogLine = Record<string, unknown> & { msg: string };
const logLines = () =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
const DEV_INBOX = "e-mail kept in development inbox";
const inboxLines = () => logLines().filter((line) => line.msg === DEV_INBOX);
/** The e-mail worker looks for new mail every 5 s: a wait for an event, not a measure of time. */
const WORKER_POLL = { timeout: 20_000, interval: 200 };
/** The log, less the development inbox lines that README documents as carrying links. */
const logWithoutInbox = () =>
  logLines()
    .filter((line) => line.msg !== DEV_INBOX)
    .map((line) => JSON.stringify(line))
    .join("\n");

/** The link the newest e-mail to `to` carries, as the admin API lists it; its code is the secret. */
async function newestCode(to: string): Promise<string> {
  const inbox = await call("GET", `/internal/emails?to=${encodeURIComponent(to)}`, internal("admin"));
  const [newest] = inbox.items as { text: string }[];
  const code = /[?&]code=([0-9a-z]+)/.exec(newest?.text ?? "")?.[1];
  expect(code).toMatch(/^[0-9a-z]{45}$/);
  return code as string;
}

describe("the server log", () => {
  const secrets: string[] = [PASSWORD, METADATA_SECRET];
  let resetCode = "";

  it("holds no secret of a session: passwords, tokens, codes, keys", async () => {
    const client = internal("client");
    const signedUp = await call("POST", "/auth/password/sign-up", client, {
      email: EMAIL,
      password: PASSWORD,
    });
    const signedIn = await call("POST", "/auth/password/sign-in", client, {
      email: EMAIL,
      password: PASSWORD,
    });
    const refreshed = await call("POST", "/auth/sessions/current/refresh", {
      ...client,
      "x-stack-refresh-token": String(signedIn.refresh_token),
    });
    secrets.push(
      ...[signedUp, signedIn].flatMap((a) => [String(a.access_token), String(a.refresh_token)]),
      String(refreshed.access_token),
    );

    await call("POST", "/auth/password/send-reset-code", client, {
      email: EMAIL,
      callback_url: "http://localhost:3000/handler/password-reset",
    });
    resetCode = await newestCode(EMAIL);

    const keys = await call(
      "POST",
      "/internal/api-keys",
      internal("admin"),
      {
        description: "log redaction",
        expires_at_millis: Date.now() + 3600_000,
        has_publishable_client_key: true,
        has_secret_server_key: true,
        has_super_secret_admin_key: true,
      },
      200,
    );
    secrets.push(
      String(keys.publishable_client_key),
      String(keys.secret_server_key),
      String(keys.super_secret_admin_key),
    );
    secrets.push(server.keys.pck, server.keys.ssk, server.keys.sak);

    const log = logWithoutInbox();
    for (const secret of [...secrets, resetCode]) expect(log).not.toContain(secret);
    // The documented exception: this project is not in production mode, so its inbox line carries the link.
    await expect
      .poll(() => inboxLines().some((line) => String(line.link).includes(resetCode)), WORKER_POLL)
      .toBe(true);
  });

  it("logs a failing query by its SQLSTATE and request id, without its parameters or PostgreSQL's detail", async () => {
    const client = internal("client");
    const session = await call("POST", "/auth/password/sign-in", client, {
      email: EMAIL,
      password: PASSWORD,
    });
    const res = await fetch(`${server.baseUrl}/api/v1/users/me`, {
      method: "PATCH",
      headers: {
        ...client,
        "x-stack-access-token": String(session.access_token),
        "content-type": "application/json",
      },
      body: JSON.stringify({ client_metadata: { [TRIPWIRE]: true, token: METADATA_SECRET } }),
    });
    expect(res.status).toBe(500);
    const requestId = /Request ID: (\S+)/.exec(await res.text())?.[1];
    await expect.poll(() => logLines().some((line) => line.msg === "unexpected error")).toBe(true);

    const failure = logLines().find((line) => line.msg === "unexpected error");
    expect(failure).toMatchObject({
      request_id: requestId,
      method: "PATCH",
      path: "/api/v1/users/me",
      error_code: "23514",
      error_constraint: "log_redaction_tripwire",
    });
    const log = logWithoutInbox();
    for (const secret of [...secrets, resetCode, String(session.access_token), String(session.refresh_token)])
      expect(log).not.toContain(secret);
    // The row PostgreSQL reports in its detail holds the password hash.
    expect(log).not.toContain("$argon2id$");
    expect(log).not.toContain("Failing row");
  });

  it("keeps a production-mode project's e-mail links out of the log", async () => {
    const admin = internal("admin");
    await call("PATCH", "/projects/current", admin, {
      is_production_mode: true,
      config: { allow_localhost: false, domains: [{ domain: DOMAIN, handler_path: "/handler" }] },
    });
    await call("POST", "/auth/password/send-reset-code", internal("client"), {
      email: EMAIL,
      callback_url: `${DOMAIN}/handler/password-reset`,
    });
    const code = await newestCode(EMAIL);
    await expect.poll(() => inboxLines().length, WORKER_POLL).toBe(2);

    const all = logLines()
      .map((line) => JSON.stringify(line))
      .join("\n");
    expect(all).not.toContain(code);
    expect(inboxLines()[1]).not.toHaveProperty("to");
  });
});
