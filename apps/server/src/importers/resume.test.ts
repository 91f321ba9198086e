// An import that dies mid-way resumes from its checkpoint and ends with the same users as an uninterrupted run:
// nothing twice, nothing missing; a dry run writes nothing.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { allUsers, apiClient } from "../cli/api-client.ts";
import { createTestServer, type ProjectKeys, type TestServer } from "../testing/test-server.ts";
import { httpSink, type Sink } from "./http-sink.ts";
import { importReader } from "./index.ts";
import { runImport } from "./run.ts";

let server: TestServer;
let keys: ProjectKeys;
const dir = mkdtempSync(join(tmpdir(), "gatehouse-import-resume-"));

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject());
});
afterAll(() => server.close());

it("resumes after a crash and imports every user exactly once", async () => {
  const api = apiClient({
    url: "http://localhost",
    projectId: keys.projectId,
    adminKey: keys.sak,
    fetch: (url, init) => server.app.request(url, init),
  });
  const file = join(dir, "users.ndjson");
  const total = 60;
  writeFileSync(
    file,
    Array.from({ length: total }, (_, i) =>
      JSON.stringify({
        id: `u${i}`,
        email: `user${i}@resume.test`,
        teams: [{ id: "t", display_name: "Resume" }],
      }),
    ).join("\n"),
  );
  const read = await importReader("generic", file, {});
  const count = async () => {
    let n = 0;
    for await (const _ of allUsers(api, "query=resume.test")) n++;
    return n;
  };

  expect(
    await runImport({ provider: "generic", file, read, sink: httpSink(api, "generic"), dryRun: true }),
  ).toMatchObject({ records: total, created: total });
  expect(await count()).toBe(0);

  // The process "dies" once 30 users are sent: the server wrote that batch but its answer is lost, as when the
  // connection drops after the commit; the checkpoint still names the batch before.
  const real = httpSink(api, "generic");
  let writes = 0;
  const dying: Sink = {
    async writeBatch(users) {
      writes += users.length;
      const answer = await real.writeBatch(users);
      if (writes > 30) throw new Error("connection lost");
      return answer;
    },
  };
  await expect(runImport({ provider: "generic", file, read, sink: dying, batchSize: 8 })).rejects.toThrow(
    "connection lost",
  );
  const checkpoint = JSON.parse(readFileSync(`${file}.gatehouse-import.json`, "utf8")) as { line: number };
  expect(checkpoint.line).toBeGreaterThan(0);
  expect(checkpoint.line).toBeLessThanOrEqual(30);

  const resumed = await runImport({
    provider: "generic",
    file,
    read,
    sink: httpSink(api, "generic"),
    batchSize: 8,
  });
  expect(resumed.resumed_from_line).toBe(checkpoint.line);
  // Users written after the checkpoint but before the crash are found again, not duplicated.
  expect(resumed.created + resumed.existing).toBe(total - checkpoint.line);
  // The batch committed before the crash is found by its source ids and left alone.
  expect(resumed.existing).toBe(8);
  expect(existsSync(`${file}.gatehouse-import.json`)).toBe(false);
  expect(await count()).toBe(total);
  const teams = (await api<{ items: { display_name: string }[] }>("GET", "/teams")).items.filter(
    (t) => t.display_name === "Resume",
  );
  expect(teams).toHaveLength(1);
}, 180_000);
