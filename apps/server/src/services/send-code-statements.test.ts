// Endpoints that e-mail a code to any address must not tell, by the work they do before answering, whether the
// address has an account: the statements a known and an unknown address cause are recorded at the database driver
// and compared, which proves equal work without timing anything.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson } from "../testing/expect-error.ts";
import { recordStatements } from "../testing/statement-recorder.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

const DOMAIN = "https://app.example.com";
const SEND_RESET = "/api/v1/auth/password/send-reset-code";
const SEND_OTP = "/api/v1/auth/otp/send-sign-in-code";

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({
    config: { magic_link_enabled: true, domains: [{ domain: DOMAIN, handler_path: "/handler" }] },
  }));
});

afterAll(async () => {
  await server?.close();
});

const post = (path: string, body: unknown) =>
  server.request(path, {
    method: "POST",
    headers: { ...accessHeaders("client", keys), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The statements one request issues, and its status. */
async function statementsOf(path: string, body: unknown): Promise<{ status: number; statements: string[] }> {
  let status = 0;
  const statements = await recordStatements(server.deps.database, async () => {
    status = (await post(path, body)).status;
  });
  return { status, statements };
}

const outboxTo = async (to: string) => (await server.deps.outbox.list(keys.projectId, { to })).length;

describe("sending a code does the same work whether or not the address has an account", () => {
  it("send-reset-code: the same statements for a user with a password and for an unknown address", async () => {
    const known = "reset-known@example.com";
    const unknown = "reset-unknown@example.com";
    await expectJson(
      await post("/api/v1/auth/password/sign-up", { email: known, password: "correct horse" }),
    );
    const callback_url = `${DOMAIN}/handler/password-reset`;
    // Warms what any first request warms (the project, its keys), so both recorded requests start alike.
    await post(SEND_RESET, { email: "warm-up@example.com", callback_url });
    const mailsBefore = await outboxTo(known);

    const forKnown = await statementsOf(SEND_RESET, { email: known, callback_url });
    const forUnknown = await statementsOf(SEND_RESET, { email: unknown, callback_url });

    expect([forKnown.status, forUnknown.status]).toEqual([200, 200]);
    expect(forUnknown.statements).toEqual(forKnown.statements);
    // One insert into the outbox, which announces the e-mail to the workers in the same statement.
    expect(
      forKnown.statements.filter((s) => /^with queued as \(insert into "email_outbox"/.test(s)),
    ).toHaveLength(1);
    // The same work, not the same effect: only the account's owner gets an e-mail.
    expect(await outboxTo(known)).toBe(mailsBefore + 1);
    expect(await outboxTo(unknown)).toBe(0);
  });

  it("send-sign-in-code: the same statements for a verified user (OTP off or on) and for a new address", async () => {
    const known = "otp-known@example.com";
    await server.signIn(keys.projectId, { email: known });
    const callback_url = `${DOMAIN}/handler/magic-link-callback`;
    await post(SEND_OTP, { email: "otp-warm-up@example.com", callback_url });

    // The first code for a verified user also turns OTP sign-in on for it (WIRE.md §4.2).
    const firstForKnown = await statementsOf(SEND_OTP, { email: known, callback_url });
    const laterForKnown = await statementsOf(SEND_OTP, { email: known, callback_url });
    const forUnknown = await statementsOf(SEND_OTP, { email: "otp-unknown@example.com", callback_url });

    expect([firstForKnown.status, laterForKnown.status, forUnknown.status]).toEqual([200, 200, 200]);
    expect(firstForKnown.statements).toEqual(forUnknown.statements);
    expect(laterForKnown.statements).toEqual(forUnknown.statements);
    expect(firstForKnown.statements.some((s) => s.startsWith('update "users"'))).toBe(true);
    const user = await server.deps.usersRepo.findByAuthEmail(keys.projectId, known);
    expect(user?.otpAuthEnabled).toBe(true);
  });
});
