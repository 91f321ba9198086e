// Import jobs (issue 23): an export file uploaded through the admin API is read whole (a broken one is refused with
// its line and nothing is kept), then imported in the background by the worker through the same code as the CLI;
// progress, counts and skipped records are answered, a job can be cancelled, and one left running by a dead process
// is taken up again and finishes with the same result.
import type { ImportJob, ImportJobDetail } from "@gatehouse/contract";
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { importJobs } from "../db/schema.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  type AccessType,
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  passwordSignInStatus,
  type TestServer,
} from "../testing/test-server.ts";
import { createImportJobs } from "./service.ts";

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject());
});
afterAll(() => server.close());

const CLERK_HEADER =
  "id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher";

async function clerkCsv(prefix: string, count: number, password: string): Promise<string> {
  const digest = await bcrypt.hash(password, 4);
  const rows = Array.from(
    { length: count },
    (_, i) =>
      `${prefix}_${i},User,${i},,${prefix}${i}@jobs.test,,${prefix}${i}@jobs.test,,,,,${digest},bcrypt`,
  );
  return `${CLERK_HEADER}\n${rows.join("\n")}\n`;
}

const upload = (
  query: string,
  body: string,
  type: AccessType = "admin",
  headers: Record<string, string> = {},
) =>
  server.request(`/api/v1/internal/imports/jobs?${query}`, {
    method: "POST",
    headers: { ...accessHeaders(type, keys), "content-type": "text/csv", ...headers },
    body,
  });

const getJob = async (id: string) =>
  expectJson<ImportJobDetail>(
    await server.request(`/api/v1/internal/imports/jobs/${id}`, { headers: accessHeaders("admin", keys) }),
  );

const signIn = (email: string, password: string) => passwordSignInStatus(server, keys, email, password);

async function userCount(): Promise<number> {
  const res = await server.request("/api/v1/users?limit=200", { headers: accessHeaders("server", keys) });
  return (await expectJson<{ items: unknown[] }>(res)).items.length;
}

it("refuses callers that are not admins, unknown providers and a file over the size limit", async () => {
  await expectKnownError(await upload("provider=clerk", "x", "server"), "INSUFFICIENT_ACCESS_TYPE");
  await expectKnownError(await upload("provider=okta", "x"), "SCHEMA_ERROR");
  await expectKnownError(await upload("provider=clerk&dry_run=yes", "x"), "SCHEMA_ERROR");
  await expectKnownError(
    await upload("provider=clerk", "x", "admin", { "content-length": String(300 * 1024 * 1024) }),
    "IMPORT_FILE_TOO_LARGE",
  );
  await expectKnownError(
    await server.request("/api/v1/internal/imports/jobs/00000000-0000-4000-8000-000000000000", {
      headers: accessHeaders("admin", keys),
    }),
    "IMPORT_JOB_NOT_FOUND",
  );
});

it("counts an upload that declares no length as it arrives, and refuses it past the limit", async () => {
  const jobs = createImportJobs({ db: server.deps.db, clock: server.clock, maxFileBytes: 1000 });
  const streamed = (text: string) =>
    new Request("http://localhost/upload", {
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
  const big = await clerkCsv("big", 20, "old-pass-1");
  expect(big.length).toBeGreaterThan(1000);
  const input = { provider: "clerk", fileName: "big.csv", dryRun: true } as const;
  await expect(jobs.create(keys.projectId, input, streamed(big))).rejects.toMatchObject({
    code: "IMPORT_FILE_TOO_LARGE",
  });
  const small = await jobs.create(keys.projectId, input, streamed(await clerkCsv("small", 1, "old-pass-1")));
  expect(small).toMatchObject({ total: 1, status: "queued" });
  await jobs.cancel(keys.projectId, small.id);
});

it("refuses a broken file with its line and keeps nothing of it", async () => {
  const good = await clerkCsv("broken", 3, "old-pass-1");
  const before = (await server.deps.db.select().from(importJobs)).length;
  const res = await upload("provider=clerk", `${good}ragged,row\n`);
  const error = await expectKnownError(res, "IMPORT_FILE_INVALID");
  expect(error.details).toMatchObject({ line: 5 });
  expect((await server.deps.db.select().from(importJobs)).length).toBe(before);
  const generic = await upload("provider=generic", '{"id":"a"}\n{not json\n');
  expect((await expectKnownError(generic, "IMPORT_FILE_INVALID")).details).toMatchObject({ line: 2 });
});

it("a dry run reads and counts every record and writes no user", async () => {
  const before = await userCount();
  const created = await expectJson<ImportJobDetail>(
    await upload("provider=clerk&dry_run=true&file_name=dry.csv", await clerkCsv("dry", 4, "old-pass-1")),
    201,
  );
  expect(created).toMatchObject({ status: "queued", total: 4, dry_run: true, file_name: "dry.csv" });
  await server.deps.importJobWorker.runOnce();
  expect(await getJob(created.id)).toMatchObject({
    status: "succeeded",
    processed: 4,
    created: 4,
    existing: 0,
  });
  expect(await userCount()).toBe(before);
  expect(await signIn("dry0@jobs.test", "old-pass-1")).toBe(400);
});

it("imports a Clerk export whose users then sign in with their old passwords; skips are listed with why", async () => {
  const csv = `${await clerkCsv("clerk", 5, "clerk-pass-1")}odd,Odd,,,odd@jobs.test,,odd@jobs.test,,,,,abc,argon2\n`;
  const created = await expectJson<ImportJobDetail>(
    await upload("provider=clerk&file_name=users.csv", csv),
    201,
  );
  expect(created.total).toBe(6);
  await server.deps.importJobWorker.runOnce();
  const done = await getJob(created.id);
  expect(done).toMatchObject({
    status: "succeeded",
    total: 6,
    processed: 6,
    created: 5,
    existing: 0,
    skipped: 1,
  });
  expect(done.rate_per_second).toBeGreaterThan(0);
  expect(done.skipped_records).toEqual([
    { line: 7, id: null, reason: "password_hasher argon2 is not supported" },
  ]);
  expect(await signIn("clerk3@jobs.test", "clerk-pass-1")).toBe(200);
  expect(await signIn("clerk3@jobs.test", "wrong-pass-1")).toBe(400);

  // The same file again, a second later: every user is there already.
  server.clock.advance(1000);
  const again = await expectJson<ImportJobDetail>(await upload("provider=clerk", csv), 201);
  await server.deps.importJobWorker.runOnce();
  expect(await getJob(again.id)).toMatchObject({ status: "succeeded", created: 0, existing: 5, skipped: 1 });

  const list = await expectJson<{ items: ImportJob[] }>(
    await server.request("/api/v1/internal/imports/jobs", { headers: accessHeaders("admin", keys) }),
  );
  expect(list.items[0]?.id).toBe(again.id);
  expect(list.items.map((job) => job.id)).toContain(created.id);
});

it("a cancelled job writes nothing more", async () => {
  const created = await expectJson<ImportJobDetail>(
    await upload("provider=clerk", await clerkCsv("cancel", 3, "old-pass-1")),
    201,
  );
  const cancel = await server.request(`/api/v1/internal/imports/jobs/${created.id}/cancel`, {
    method: "POST",
    headers: accessHeaders("admin", keys),
  });
  expect(await expectJson<ImportJobDetail>(cancel)).toMatchObject({ status: "cancelled", processed: 0 });
  await server.deps.importJobWorker.runOnce();
  expect(await getJob(created.id)).toMatchObject({ status: "cancelled", processed: 0, created: 0 });
  expect(await signIn("cancel0@jobs.test", "old-pass-1")).toBe(400);
});

it("a job left running by a dead process is taken up again once its lease ran out, with the same result", async () => {
  const created = await expectJson<ImportJobDetail>(
    await upload("provider=clerk", await clerkCsv("resume", 7, "resume-pass-1")),
    201,
  );
  // A process claimed it, wrote the first batch of users, and died before recording it.
  const first = await server.deps.db.select().from(importJobs).where(eq(importJobs.id, created.id));
  expect(first[0]?.status).toBe("queued");
  const project = await server.deps.projects.find(keys.projectId);
  if (!project) throw new Error("no project");
  const lease = new Date(server.clock.now().getTime() + 60_000);
  await server.deps.db
    .update(importJobs)
    .set({
      status: "running",
      claimedBy: crypto.randomUUID(),
      leaseUntil: lease,
      startedAt: server.clock.now(),
    })
    .where(eq(importJobs.id, created.id));
  const digest = await bcrypt.hash("resume-pass-1", 4);
  await server.deps.bulkImport.importBatch(project, "clerk", [
    { id: "resume_0", email: "resume0@jobs.test", email_verified: true, password_hash: digest },
    { id: "resume_1", email: "resume1@jobs.test", email_verified: true, password_hash: digest },
  ]);

  // While the lease holds, no other process takes it.
  await server.deps.importJobWorker.runOnce();
  expect(await getJob(created.id)).toMatchObject({ status: "running", processed: 0 });

  server.clock.advance(61_000);
  await server.deps.importJobWorker.runOnce();
  expect(await getJob(created.id)).toMatchObject({
    status: "succeeded",
    processed: 7,
    created: 5,
    existing: 2,
    skipped: 0,
  });
  expect(await signIn("resume6@jobs.test", "resume-pass-1")).toBe(200);
});
