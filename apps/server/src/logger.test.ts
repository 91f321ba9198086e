// Log redaction against the real database: a failed query's parameters, PostgreSQL's detail and the values its
// messages quote never reach a log line (nor a development 500 answer); what identifies the failure stays.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "./db/schema.ts";
import { renderError } from "./http/respond.ts";
import { createLogger, type LogFormat, type Logger, summarizeError } from "./logger.ts";
import { createTestServer, type TestServer } from "./testing/test-server.ts";

const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQtMTIz$c2VjcmV0LWhhc2gtdmFsdWUtNDU2Nzg5";
const TOKEN = "sk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0";

let server: TestServer;
const db = () => server.deps.db;

beforeAll(async () => {
  // A test server only for its database, seeded with the internal project the users belong to.
  server = await createTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** The error a query throws, as the app would meet it. */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("the query was expected to fail");
}

/** A real logger, JSON or pretty, writing into a string. */
function logged(emit: (logger: Logger) => void, format: LogFormat = "json"): string {
  let out = "";
  emit(createLogger({ format, colors: false, destination: { write: (text: string) => (out += text) } }));
  return out;
}

async function duplicateUser(): Promise<{ error: unknown; id: string }> {
  const id = randomUUID();
  const row = {
    id,
    projectId: "internal",
    passwordHash: HASH,
    clientMetadata: { api_token: TOKEN },
    displayName: "Ann Example",
    signedUpAt: new Date(),
    lastActiveAt: new Date(),
  };
  await db().insert(users).values(row);
  return { error: await failure(() => db().insert(users).values(row)), id };
}

describe("log redaction", () => {
  it("logs a failed insert by class, SQLSTATE, constraint and query text, without its parameters or detail", async () => {
    const { error, id } = await duplicateUser();
    // The raw error does carry them: this is what the log must not repeat.
    expect(String((error as Error).message)).toContain(HASH);
    expect(String((error as { cause?: { detail?: string } }).cause?.detail)).toContain(id);

    const line = logged((logger) => logger.error("unexpected error", { request_id: "req-1" }, error));
    const pretty = logged(
      (logger) => logger.error("unexpected error", { request_id: "req-1" }, error),
      "pretty",
    );
    for (const secret of [HASH, TOKEN, "c2VjcmV0", id, "Ann Example", "already exists", "params"]) {
      expect(line).not.toContain(secret);
      expect(pretty).not.toContain(secret);
    }
    expect(pretty).toContain("database error 23505 (constraint users_pkey)");
    const entry = JSON.parse(line) as Record<string, string>;
    expect(entry).toMatchObject({
      level: "error",
      msg: "unexpected error",
      request_id: "req-1",
      error: "database error 23505 (constraint users_pkey)",
      error_class: "DrizzleQueryError <- DatabaseError",
      error_code: "23505",
      error_constraint: "users_pkey",
    });
    expect(entry.error_query).toMatch(/^insert into "users" .*\$1/);
    expect(entry.error_stack).toMatch(/^ {4}at /);
  });

  it("drops the value PostgreSQL quotes in its own message", async () => {
    const error = await failure(() => db().execute(sql`select ${TOKEN}::uuid`));
    expect(String((error as { cause?: Error }).cause?.message)).toContain(TOKEN);
    const line = logged((logger) => logger.warn("could not", {}, error));
    expect(line).not.toContain(TOKEN);
    expect(logged((logger) => logger.warn("could not", {}, error), "pretty")).not.toContain(TOKEN);
    expect(JSON.parse(line)).toMatchObject({ error_code: "22P02", error: "database error 22P02" });
  });

  it("keeps a failed query's parameters out of a development-mode 500 answer too", async () => {
    const { error } = await duplicateUser();
    let response = new Response();
    const out = logged((logger) => {
      response = renderError(error, {
        requestId: "req-2",
        development: true,
        logger,
        method: "POST",
        path: "/x",
      });
    });
    const body = await response.text();
    expect(response.status).toBe(500);
    expect(body).toContain("database error 23505");
    expect(body).toContain('insert into "users"');
    for (const text of [body, out]) {
      expect(text).not.toContain(HASH);
      expect(text).not.toContain(TOKEN);
    }
    expect(JSON.parse(out)).toMatchObject({ request_id: "req-2", method: "POST", path: "/x" });
  });

  it("keeps the message of an error that is not a query's, with its causes and code", () => {
    const error = new Error("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ECONNREFUSED" }),
    });
    expect(summarizeError(error)).toMatchObject({
      error: "fetch failed: connect ECONNREFUSED 127.0.0.1:25",
      error_class: "Error <- Error",
      error_code: "ECONNREFUSED",
    });
  });
});
