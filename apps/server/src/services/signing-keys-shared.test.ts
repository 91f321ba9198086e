// Signing-key caches across processes: two sets of services on one database (as two server processes are), a
// token verified (and cached) by the second, then its key retired by a rotation in the first. The retirement is
// announced on the database (LISTEN/NOTIFY), and the second refuses the token within the 1 s bound.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { createDeps } from "../deps.ts";
import { silentLogger } from "../logger.ts";
import { createTestServer, TEST_BASE_URL, TEST_SECRET, type TestServer } from "../testing/test-server.ts";
import { TokenNotVerifiable } from "./signing-keys.ts";

let server: TestServer;
let other: ReturnType<typeof createDeps>;

beforeAll(async () => {
  server = await createTestServer();
  other = createDeps({
    database: server.deps.database,
    secret: TEST_SECRET,
    baseUrl: TEST_BASE_URL,
    clock: server.clock,
    logger: silentLogger,
  });
});
afterAll(() => server.close());

describe("a signing key retired through one process", () => {
  it("stops verifying in another that had cached it, within 1 s", async () => {
    const { keys } = await server.createProject();
    const token = await server.mintAccessToken(keys.projectId);
    expect((await other.signingKeys.verify(token)).projectId).toBe(keys.projectId);
    expect((await other.signingKeys.verify(token)).projectId).toBe(keys.projectId); // now from its cache

    // A rotation publishes a successor; one after it and an access-token lifetime later retires the first key.
    await inTransaction(server.deps.db, (tx) => server.deps.signingKeys.rotate(tx, keys.projectId));
    server.clock.advance(60 * 60_000 + server.deps.accessTokenLifetimeMs);
    await inTransaction(server.deps.db, (tx) => server.deps.signingKeys.rotate(tx, keys.projectId));

    const started = Date.now();
    for (;;) {
      const refused = await other.signingKeys.verify(token).then(
        () => false,
        (error: unknown) => error instanceof TokenNotVerifiable,
      );
      if (refused) break;
      expect(Date.now() - started).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 10));
    }
  });
});
