// Breached and weak passwords (issue 21 item 3): the range protocol against a local range server (only the 5-character
// prefix leaves, padding asked for and ignored), the shipped list when the service is unreachable or off, the zxcvbn
// minimum, and each of sign-up, update, set and reset refusing with its known error.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  withToken,
} from "../testing/test-server.ts";
import { createPasswordPolicy, rangeListsSuffix, sha1Hex } from "./password-policy.ts";

const SIGN_UP = "/api/v1/auth/password/sign-up";
const UPDATE = "/api/v1/auth/password/update";
const SET = "/api/v1/auth/password/set";
const RESET = "/api/v1/auth/password/reset";
// Not among the common passwords: only the range service knows these are breached.
const BREACHED = "orchid lantern 1987";
const PADDED = "pebble window 2044";
const CLEAN = "violet harbour 3311";

type Seen = { url: string; headers: IncomingHttpHeaders };

/** A Have I Been Pwned-style range server: `BREACHED` listed, `PADDED`'s suffix only as a padding entry (count 0). */
async function startRangeServer(seen: Seen[], delayMs = 0): Promise<Server> {
  const range = (password: string) => sha1Hex(password).slice(0, 5);
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    const prefix = (req.url ?? "").split("/").pop() ?? "";
    const lines = ["0018A45C4D1DEF81644B54AB7F969B88D65:3", "00D4F6E8FA6EECAD2A3AA415EEC418D38EC:2"];
    if (prefix === range(BREACHED)) lines.push(`${sha1Hex(BREACHED).slice(5)}:42`);
    if (prefix === range(PADDED)) lines.push(`${sha1Hex(PADDED).slice(5)}:0`);
    setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end(lines.join("\r\n")), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`;

describe("range protocol pieces", () => {
  it("hashes with upper-case SHA-1 and ignores padding entries", () => {
    expect(sha1Hex("password")).toBe("5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8");
    expect(
      rangeListsSuffix(
        "1E4C9B93F3F0682250B6CF8331B7EE68FD8:3861493\r\n",
        "1E4C9B93F3F0682250B6CF8331B7EE68FD8",
      ),
    ).toBe(true);
    expect(
      rangeListsSuffix("1E4C9B93F3F0682250B6CF8331B7EE68FD8:0\r\n", "1E4C9B93F3F0682250B6CF8331B7EE68FD8"),
    ).toBe(false);
  });

  it("treats a range service slower than its timeout as unreachable, and the list still decides", async () => {
    const seen: Seen[] = [];
    const slow = await startRangeServer(seen, 2000);
    const failures: unknown[] = [];
    const policy = createPasswordPolicy({ rangeTimeoutMs: 100, onRangeFailure: (e) => failures.push(e) });
    const config = {
      password_breach_check: "range" as const,
      password_breach_range_url: urlOf(slow),
      password_min_strength: null,
    };
    try {
      await expect(policy.assertAcceptable(config, BREACHED)).resolves.toBeUndefined();
      await expect(policy.assertAcceptable(config, "password123")).rejects.toMatchObject({
        code: "PASSWORD_BREACHED",
      });
      expect(failures).toHaveLength(1);
      expect(seen).toHaveLength(1);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});

describe("breached and weak passwords through the API", () => {
  let server: TestServer;
  let keys: ProjectKeys;
  let rangeServer: Server;
  const seen: Seen[] = [];
  const post = jsonPost(() => ({ server, keys }));

  const configure = (config: Record<string, unknown>) =>
    server.request("/api/v1/projects/current", {
      method: "PATCH",
      headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
      body: JSON.stringify({ config }),
    });

  beforeAll(async () => {
    server = await createTestServer();
    keys = (await server.createProject({ displayName: "Trust" })).keys;
    rangeServer = await startRangeServer(seen);
  });
  afterAll(async () => {
    await new Promise((resolve) => rangeServer.close(resolve));
    await server.close();
  });

  it("refuses the most common passwords by default, and accepts them when the check is off", async () => {
    await expectKnownError(
      await post(SIGN_UP, { email: uniqueEmail(), password: "password123" }),
      "PASSWORD_BREACHED",
    );
    // Case does not hide a common password.
    await expectKnownError(
      await post(SIGN_UP, { email: uniqueEmail(), password: "QWERTYUIOP" }),
      "PASSWORD_BREACHED",
    );
    expect((await post(SIGN_UP, { email: uniqueEmail(), password: BREACHED })).status).toBe(200);
    expect(seen).toHaveLength(0);
    expect((await configure({ password_breach_check: "off" })).status).toBe(200);
    expect((await post(SIGN_UP, { email: uniqueEmail(), password: "password123" })).status).toBe(200);
  });

  it("asks the range service with only the hash prefix and padding, and refuses what it lists", async () => {
    expect(
      (await configure({ password_breach_check: "range", password_breach_range_url: urlOf(rangeServer) }))
        .status,
    ).toBe(200);
    seen.length = 0;
    await expectKnownError(
      await post(SIGN_UP, { email: uniqueEmail(), password: BREACHED }),
      "PASSWORD_BREACHED",
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe(`/range/${sha1Hex(BREACHED).slice(0, 5)}`);
    expect(seen[0]?.headers["add-padding"]).toBe("true");
    // Nothing else of the password or its hash left the server.
    expect(JSON.stringify(seen[0])).not.toContain(sha1Hex(BREACHED).slice(5));
    expect(JSON.stringify(seen[0])).not.toContain(BREACHED);
    expect((await post(SIGN_UP, { email: uniqueEmail(), password: PADDED })).status).toBe(200);
    expect((await post(SIGN_UP, { email: uniqueEmail(), password: CLEAN })).status).toBe(200);
  });

  it("falls back to the shipped list when the range service is unreachable", async () => {
    const closed = await startRangeServer([]);
    const url = urlOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect((await configure({ password_breach_check: "range", password_breach_range_url: url })).status).toBe(
      200,
    );
    await expectKnownError(
      await post(SIGN_UP, { email: uniqueEmail(), password: "iloveyou1" }),
      "PASSWORD_BREACHED",
    );
    expect((await post(SIGN_UP, { email: uniqueEmail(), password: BREACHED })).status).toBe(200);
  });

  it("refuses breached passwords on update, set and reset too", async () => {
    expect(
      (await configure({ password_breach_check: "range", password_breach_range_url: urlOf(rangeServer) }))
        .status,
    ).toBe(200);
    const email = uniqueEmail();
    const signedUp = await post(SIGN_UP, { email, password: CLEAN });
    const { access_token, user_id } = (await signedUp.json()) as { access_token: string; user_id: string };
    await expectKnownError(
      await post(UPDATE, { old_password: CLEAN, new_password: BREACHED }, withToken(access_token)),
      "PASSWORD_BREACHED",
    );
    // The old password must be right before the policy is asked at all.
    seen.length = 0;
    await expectKnownError(
      await post(
        UPDATE,
        { old_password: "not the password", new_password: BREACHED },
        withToken(access_token),
      ),
      "PASSWORD_CONFIRMATION_MISMATCH",
    );
    expect(seen).toHaveLength(0);

    const anonymousless = await server.signIn(keys.projectId, { email: uniqueEmail() });
    await expectKnownError(
      await post(SET, { password: BREACHED }, withToken(anonymousless.accessToken)),
      "PASSWORD_BREACHED",
    );
    expect((await post(SET, { password: CLEAN }, withToken(anonymousless.accessToken))).status).toBe(200);

    const { code } = await inTransaction(server.deps.db, (tx) =>
      server.deps.codes.create(tx, {
        projectId: keys.projectId,
        purpose: "password_reset",
        data: { user_id, email },
        callbackUrl: "https://app.example.com/handler/password-reset",
      }),
    );
    await expectKnownError(await post(RESET, { code, password: "password1" }), "PASSWORD_BREACHED");
    expect((await post(RESET, { code, password: "marble canyon 7781" })).status).toBe(200);
  });

  it("enforces the project's minimum strength with the score in the error", async () => {
    expect((await configure({ password_breach_check: "off", password_min_strength: 3 })).status).toBe(200);
    await expectKnownError(
      await post(SIGN_UP, { email: uniqueEmail(), password: "abcdefgh1" }),
      "PASSWORD_TOO_WEAK",
      {
        score: expect.any(Number),
        min_score: 3,
      },
    );
    // The user's own e-mail address makes a weak password.
    const email = "marguerite.fontaine@example.com";
    await expectKnownError(
      await post(SIGN_UP, { email, password: "marguerite.fontaine" }),
      "PASSWORD_TOO_WEAK",
    );
    expect((await post(SIGN_UP, { email: uniqueEmail(), password: "tundra-Kettle-58-wisp" })).status).toBe(
      200,
    );
  });

  it("validates the policy settings on save", async () => {
    expect((await configure({ password_min_strength: 5 })).status).toBe(400);
    expect((await configure({ password_breach_check: "sometimes" })).status).toBe(400);
    expect((await configure({ password_breach_range_url: "file:///etc/passwd" })).status).toBe(400);
  });
});
