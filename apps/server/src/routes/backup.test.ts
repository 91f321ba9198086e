// GET /internal/backup [GO]: the running server's copy of its embedded database — only for the internal project's
// admins (it holds every project), a gzipped data directory that opens as a database with the data written before
// it, and on PostgreSQL a known error that names pg_dump.
import { gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "../db/client.ts";
import { projects } from "../db/schema.ts";
import { expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

const BACKUP = "/api/v1/internal/backup";
let server: TestServer;
let other: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  other = (await server.createProject({ displayName: "Backed up" })).keys;
});
afterAll(() => server.close());

describe("GET /internal/backup", () => {
  it("refuses every caller but the internal project's admins", async () => {
    await expectKnownError(await server.request(BACKUP), "ACCESS_TYPE_REQUIRED");
    await expectKnownError(
      await server.request(BACKUP, { headers: accessHeaders("server", server.internal) }),
      "INSUFFICIENT_ACCESS_TYPE",
    );
    // Another project's admin administers that project only; the dump would hold everyone's.
    await expectKnownError(
      await server.request(BACKUP, { headers: accessHeaders("admin", other) }),
      "EXPECTED_INTERNAL_PROJECT",
    );
    // …nor is its key presented as the internal project's.
    await expectKnownError(
      await server.request(BACKUP, {
        headers: { ...accessHeaders("admin", server.internal), "x-stack-super-secret-admin-key": other.sak },
      }),
      "INVALID_SUPER_SECRET_ADMIN_KEY",
    );
  });

  it("answers the embedded database as a gzipped tar that opens with the data written before it", async () => {
    const response = await server.request(BACKUP, { headers: accessHeaders("admin", server.internal) });
    if (server.deps.database.kind !== "pglite") {
      await expectKnownError(response, "BACKUP_NOT_AVAILABLE");
      return;
    }
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/gzip");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(gunzipSync(bytes).subarray(257, 262).toString()).toBe("ustar");
    const copy = await openPglite({ dump: new Blob([bytes]) });
    try {
      const [row] = await copy.db.select().from(projects).where(eq(projects.id, other.projectId));
      expect(row?.displayName).toBe("Backed up");
    } finally {
      await copy.close();
    }
  });

  it("makes one backup at a time: a second request meanwhile is refused, and the next one after it is served", async () => {
    if (server.deps.database.kind !== "pglite") return;
    const asOperator = { headers: accessHeaders("admin", server.internal) };
    const [first, second] = await Promise.all([
      server.request(BACKUP, asOperator),
      server.request(BACKUP, asOperator),
    ]);
    const served = first.status === 200 ? first : second;
    const refused = first.status === 200 ? second : first;
    expect(served.status).toBe(200);
    const body = await expectKnownError(refused, "BACKUP_NOT_AVAILABLE");
    expect(JSON.stringify(body.details)).toContain("another backup");
    // Still unread: the copy is still held, so a third waits its turn too.
    await expectKnownError(await server.request(BACKUP, asOperator), "BACKUP_NOT_AVAILABLE");
    await served.arrayBuffer();
    const third = await server.request(BACKUP, asOperator);
    expect(third.status).toBe(200);
    await third.arrayBuffer();

    // A client that goes away mid-way gives its turn back as well.
    const abandoned = await server.request(BACKUP, asOperator);
    expect(abandoned.status).toBe(200);
    await abandoned.body?.cancel();
    const next = await server.request(BACKUP, asOperator);
    expect(next.status, await next.clone().text()).toBe(200);
    await next.arrayBuffer();
  });
});
