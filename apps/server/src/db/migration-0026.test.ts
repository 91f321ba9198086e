// Migration 0026's data step: an instance that already has an operator has had its first one, so an owner team
// emptied after the upgrade is not handed to whoever signs up next; an instance without one keeps the seat open.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERNAL_PROJECT_ID } from "../services/seed.ts";
import { migrationStatement } from "../testing/migration-step.ts";
import { accessHeaders, createTestServer, type TestServer, uniqueIp } from "../testing/test-server.ts";
import { projects } from "./schema.ts";

/** The migration's UPDATE. */
const dataStep = migrationStatement("0026_first_operator_seat.sql", 'UPDATE "projects"');

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const seat = async () =>
  (await server.deps.db.select().from(projects).where(eq(projects.id, INTERNAL_PROJECT_ID)))[0]
    ?.firstOperatorAt;
/** The column as the migration finds it: added, empty. */
const beforeTheDataStep = () =>
  server.deps.db.execute(sql`update projects set first_operator_at = null where id = ${INTERNAL_PROJECT_ID}`);

describe("migration 0026: the first operator's seat of an existing instance", () => {
  it("stays open while the owner team has no member, and is taken once it has one", async () => {
    expect(dataStep).toBeDefined();
    await server.deps.db.execute(sql.raw(dataStep ?? ""));
    expect(await seat()).toBeNull();

    const res = await server.request("/api/v1/auth/password/sign-up", {
      method: "POST",
      headers: {
        ...accessHeaders("client", server.internal),
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify({ email: "operator@example.com", password: "correct horse battery" }),
    });
    expect(res.status).toBe(200);
    await beforeTheDataStep();
    await server.deps.db.execute(sql.raw(dataStep ?? ""));
    expect(await seat()).toBeInstanceOf(Date);
  });
});
