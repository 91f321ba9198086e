// Contact channels over HTTP (WIRE.md §4.9, §5): create, list, read, update, delete and send-verification-code; who
// may call them; what they do to sign-in, to the primary e-mail of the user object and to `user.updated`; and two
// simultaneous claims of one sign-in address.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { firstLink } from "../email/worker.ts";
import { expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

const CHANNELS = "/api/v1/contact-channels";
const SIGN_UP = "/api/v1/auth/password/sign-up";
const SIGN_IN = "/api/v1/auth/password/sign-in";
const ANONYMOUS = "/api/v1/auth/anonymous/sign-up";
const ME = "/api/v1/users/me";
const VERIFY = "/api/v1/contact-channels/verify";
const EMAILS = "/api/v1/internal/emails";

const DOMAIN = "https://app.example.com";
const CALLBACK = `${DOMAIN}/handler/email-verification`;
const PASSWORD = "correct horse battery";
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FORBIDDEN = "Client can only manage their own contact channels.";

type AccessType = "client" | "server" | "admin";
type Channel = {
  user_id: string;
  id: string;
  value: string;
  type: "email";
  used_for_auth: boolean;
  is_verified: boolean;
  is_primary: boolean;
};
type User = { userId: string; token: string; email: string };

let server: TestServer;
let keys: ProjectKeys;
let other: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  const longKeys = { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) };
  const config = { domains: [{ domain: DOMAIN, handler_path: "/handler" }] };
  keys = (await server.createProject({ displayName: "Channels", config }, longKeys)).keys;
  other = (await server.createProject({ displayName: "Other" }, longKeys)).keys;
});
afterAll(() => server.close());
// Each test starts in a new minute, so the per-minute IP limits never carry over between tests.
beforeEach(() => server.clock.advance(MINUTE + 1000));

type CallOptions = {
  type?: AccessType | null;
  token?: string;
  k?: ProjectKeys;
  headers?: Record<string, string>;
};

function call(method: string, path: string, body?: unknown, opts: CallOptions = {}) {
  const type = opts.type === undefined ? "client" : opts.type;
  return server.request(path, {
    method,
    headers: {
      ...(type ? accessHeaders(type, opts.k ?? keys) : {}),
      ...(opts.token ? { "x-stack-access-token": opts.token } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...opts.headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  return JSON.parse(text) as T;
}

/** A user with a password whose primary e-mail signs in (a password sign-up). */
async function signUp(email = uniqueEmail()): Promise<User> {
  const answer = await json<{ access_token: string; user_id: string }>(
    await call("POST", SIGN_UP, { email, password: PASSWORD }),
  );
  return { userId: answer.user_id, token: answer.access_token, email };
}

const channelPath = (userId: string, channelId: string) => `${CHANNELS}/${userId}/${channelId}`;

/** Creates a channel a moment after everything before it, so lists (oldest first) have a stable order. */
async function create(user: User, body: Record<string, unknown>, opts: CallOptions = {}): Promise<Channel> {
  server.clock.advance(1);
  const token = opts.type && opts.type !== "client" ? undefined : user.token;
  return json<Channel>(
    await call(
      "POST",
      CHANNELS,
      { user_id: "me", type: "email", used_for_auth: false, ...body },
      { token, ...opts },
    ),
    201,
  );
}

async function list(user: User, query = "", opts: CallOptions = {}): Promise<Channel[]> {
  const res = await call("GET", `${CHANNELS}?user_id=${user.userId}${query}`, undefined, {
    token: user.token,
    ...opts,
  });
  const body = await json<{ items: Channel[]; is_paginated: boolean }>(res);
  expect(body.is_paginated).toBe(false);
  return body.items;
}

const patch = (user: User, channelId: string, body: unknown, opts: CallOptions = {}) =>
  call("PATCH", channelPath("me", channelId), body, { token: user.token, ...opts });

const readMe = async (user: User) =>
  json<{ primary_email: string | null; primary_email_verified: boolean }>(
    await call("GET", ME, undefined, { token: user.token }),
  );

const signIn = (email: string, password = PASSWORD) => call("POST", SIGN_IN, { email, password });

/** The webhook events recorded for this user so far: type and the user's primary e-mail in the event. */
async function eventsOf(userId: string) {
  const events = await server.deps.events.list(keys.projectId);
  return events
    .filter((e) => (e.data as { id?: string }).id === userId)
    .map((e) => ({
      type: e.type,
      primary_email: (e.data as { primary_email?: string | null }).primary_email,
    }));
}

describe("POST /contact-channels", () => {
  it("adds an unverified, non-primary address for the client's own user; the value is kept as given", async () => {
    const user = await signUp();
    const value = `Second.${uniqueEmail()}`;
    const channel = await create(user, { value, used_for_auth: false });
    expect(channel).toEqual({
      user_id: user.userId,
      id: expect.stringMatching(UUID),
      value,
      type: "email",
      used_for_auth: false,
      is_verified: false,
      is_primary: false,
    });
    expect((await list(user)).map((c) => [c.value, c.is_primary])).toEqual([
      [user.email, true],
      [value, false],
    ]);
    // Not the primary e-mail: the user object did not change.
    expect((await eventsOf(user.userId)).map((e) => e.type)).toEqual(["user.created"]);
  });

  it("lets a server or admin caller add a verified primary address to any user, demoting the old primary", async () => {
    const user = await signUp();
    const value = uniqueEmail("new-primary");
    const channel = await create(
      user,
      { user_id: user.userId, value, is_primary: true, is_verified: true, used_for_auth: true },
      { type: "server" },
    );
    expect(channel).toMatchObject({ value, is_primary: true, is_verified: true, used_for_auth: true });
    expect(await readMe(user)).toMatchObject({ primary_email: value, primary_email_verified: true });
    expect((await list(user)).map((c) => [c.value, c.is_primary])).toEqual([
      [user.email, false],
      [value, true],
    ]);
    expect(await eventsOf(user.userId)).toEqual([
      { type: "user.created", primary_email: user.email },
      { type: "user.updated", primary_email: value },
    ]);
    const third = await create(
      user,
      { user_id: user.userId, value: uniqueEmail(), is_verified: true },
      { type: "admin" },
    );
    expect(third).toMatchObject({ is_primary: false, is_verified: true, used_for_auth: false });
  });

  it("refuses the same address twice for one user, whatever its case", async () => {
    const user = await signUp();
    await expectTextError(
      await call(
        "POST",
        CHANNELS,
        { user_id: "me", value: user.email.toUpperCase(), type: "email", used_for_auth: false },
        { token: user.token },
      ),
      400,
      "Contact channel already exists",
    );
    const value = uniqueEmail();
    await create(user, { value });
    await expectTextError(
      await call(
        "POST",
        CHANNELS,
        { user_id: "me", value, type: "email", used_for_auth: true },
        { token: user.token },
      ),
      400,
      "Contact channel already exists",
    );
    expect(await list(user)).toHaveLength(2);
  });

  it("refuses a sign-in address that another user of the project signs in with", async () => {
    const owner = await signUp();
    const user = await signUp();
    const value = owner.email.toUpperCase();
    await expectKnownError(
      await call(
        "POST",
        CHANNELS,
        { user_id: "me", value, type: "email", used_for_auth: true },
        { token: user.token },
      ),
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      { type: "email", contact_channel_value: value, would_work_if_email_was_verified: false },
    );
    // Not for sign-in, the address may be anyone's too.
    expect(await create(user, { value, used_for_auth: false })).toMatchObject({
      value,
      used_for_auth: false,
    });
    // Another project is another world.
    const stranger = await server.signIn(other.projectId);
    const res = await call(
      "POST",
      CHANNELS,
      { user_id: stranger.userId, value: owner.email, type: "email", used_for_auth: true },
      { type: "server", k: other },
    );
    expect(await json<Channel>(res, 201)).toMatchObject({ value: owner.email, used_for_auth: true });
  });

  it("answers USER_NOT_FOUND for a user the project does not have", async () => {
    const body = { value: uniqueEmail(), type: "email", used_for_auth: false };
    await expectKnownError(
      await call("POST", CHANNELS, { ...body, user_id: randomUUID() }, { type: "server" }),
      "USER_NOT_FOUND",
    );
    const stranger = await server.signIn(other.projectId);
    await expectKnownError(
      await call("POST", CHANNELS, { ...body, user_id: stranger.userId }, { type: "admin" }),
      "USER_NOT_FOUND",
    );
  });

  it("rejects bad bodies with SCHEMA_ERROR, and is_verified from a client", async () => {
    const user = await signUp();
    const post = (body: unknown) => call("POST", CHANNELS, body, { token: user.token });
    const valid = { user_id: "me", value: uniqueEmail(), type: "email", used_for_auth: false };
    const { used_for_auth: _, ...missing } = valid;
    const error = await expectKnownError(await post(missing), "SCHEMA_ERROR");
    expect(error.message).toBe(
      "Request validation failed on POST /api/v1/contact-channels:\n  - body.used_for_auth must be defined",
    );
    const unverifiable = await expectKnownError(await post({ ...valid, is_verified: true }), "SCHEMA_ERROR");
    expect(unverifiable.message).toBe(
      "Request validation failed on POST /api/v1/contact-channels:\n  - body contains unknown properties: is_verified",
    );
    for (const bad of [
      { ...valid, type: "phone" },
      { ...valid, value: "not an e-mail" },
      { ...valid, value: `${"a".repeat(250)}@example.com` },
      { ...valid, used_for_auth: "yes" },
      { ...valid, is_primary: 1 },
      { ...valid, user_id: "someone" },
      { ...valid, extra: true },
    ]) {
      await expectKnownError(await post(bad), "SCHEMA_ERROR");
    }
    expect(await list(user)).toHaveLength(1);
  });
});

describe("GET /contact-channels and GET /contact-channels/{user_id}/{contact_channel_id}", () => {
  it("lists a user's channels oldest first, or only the one asked for", async () => {
    const user = await signUp();
    const second = await create(user, { value: uniqueEmail() });
    const third = await create(user, { value: uniqueEmail() });
    const all = await list(user);
    expect(all.map((c) => c.value)).toEqual([user.email, second.value, third.value]);
    expect(await list(user, `&contact_channel_id=${second.id}`)).toEqual([second]);
    expect(await list(user, `&contact_channel_id=${randomUUID()}`)).toEqual([]);
    const mine = await json<{ items: Channel[] }>(
      await call("GET", `${CHANNELS}?user_id=me`, undefined, { token: user.token }),
    );
    expect(mine.items).toEqual(all);
    expect(await list(user, "", { type: "server", token: undefined })).toEqual(all);
    expect(await list(user, "", { type: "admin", token: undefined })).toEqual(all);
  });

  it("reads one channel; an unknown id, or another user's channel, is not found", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail() });
    expect(
      await json<Channel>(await call("GET", channelPath("me", channel.id), undefined, { token: user.token })),
    ).toEqual(channel);
    expect(
      await json<Channel>(
        await call("GET", channelPath(user.userId, channel.id), undefined, { type: "server" }),
      ),
    ).toEqual(channel);
    await expectTextError(
      await call("GET", channelPath("me", randomUUID()), undefined, { token: user.token }),
      400,
      "Contact channel not found",
    );
    const someone = await signUp();
    await expectTextError(
      await call("GET", channelPath(someone.userId, channel.id), undefined, { type: "server" }),
      400,
      "Contact channel not found",
    );
  });

  it("answers USER_NOT_FOUND for unknown users and SCHEMA_ERROR for bad input", async () => {
    const unknown = randomUUID();
    await expectKnownError(
      await call("GET", `${CHANNELS}?user_id=${unknown}`, undefined, { type: "server" }),
      "USER_NOT_FOUND",
    );
    await expectKnownError(
      await call("GET", channelPath(unknown, randomUUID()), undefined, { type: "admin" }),
      "USER_NOT_FOUND",
    );
    const user = await signUp();
    const get = (path: string) => call("GET", path, undefined, { token: user.token });
    await expectKnownError(await get(CHANNELS), "SCHEMA_ERROR");
    await expectKnownError(await get(`${CHANNELS}?user_id=me&contact_channel_id=nope`), "SCHEMA_ERROR");
    const unknownField = await expectKnownError(await get(`${CHANNELS}?user_id=me&extra=1`), "SCHEMA_ERROR");
    expect(unknownField.message).toBe(
      "Request validation failed on GET /api/v1/contact-channels:\n  - query contains unknown properties: extra",
    );
    await expectKnownError(await get(channelPath("me", "not-a-uuid")), "SCHEMA_ERROR");
  });
});

describe("PATCH /contact-channels/{user_id}/{contact_channel_id}", () => {
  it("a client's new value is unverified; a server may say it is verified; a change of case keeps it verified", async () => {
    const user = await signUp();
    const channel = await create(
      user,
      { user_id: user.userId, value: uniqueEmail(), is_verified: true },
      { type: "server" },
    );
    const newValue = uniqueEmail("changed");
    expect(await json<Channel>(await patch(user, channel.id, { value: newValue }))).toEqual({
      ...channel,
      value: newValue,
      is_verified: false,
    });
    const verified = await json<Channel>(
      await call(
        "PATCH",
        channelPath(user.userId, channel.id),
        { value: uniqueEmail(), is_verified: true },
        { type: "server" },
      ),
    );
    expect(verified.is_verified).toBe(true);
    const upper = await json<Channel>(
      await patch(user, channel.id, { value: verified.value.toUpperCase(), type: "email" }),
    );
    expect(upper).toMatchObject({ value: verified.value.toUpperCase(), is_verified: true });
    const unverified = await json<Channel>(
      await call("PATCH", channelPath(user.userId, channel.id), { is_verified: false }, { type: "admin" }),
    );
    expect(unverified.is_verified).toBe(false);
    expect((await list(user)).find((c) => c.id === channel.id)).toEqual(unverified);
  });

  it("is_primary demotes the previous primary in the user object; false leaves the user without one", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail() });
    const promoted = await json<Channel>(await patch(user, channel.id, { is_primary: true }));
    expect(promoted.is_primary).toBe(true);
    expect(await readMe(user)).toMatchObject({ primary_email: channel.value, primary_email_verified: false });
    expect((await list(user)).filter((c) => c.is_primary).map((c) => c.id)).toEqual([channel.id]);
    // Again: nothing changes, nothing is recorded.
    expect(await json<Channel>(await patch(user, channel.id, { is_primary: true }))).toEqual(promoted);
    await json<Channel>(await patch(user, channel.id, { is_primary: false }));
    expect(await readMe(user)).toMatchObject({ primary_email: null, primary_email_verified: false });
    expect(await eventsOf(user.userId)).toEqual([
      { type: "user.created", primary_email: user.email },
      { type: "user.updated", primary_email: channel.value },
      { type: "user.updated", primary_email: null },
    ]);
  });

  it("changes to a channel that is not primary do not touch the user object", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail() });
    await json<Channel>(await patch(user, channel.id, { value: uniqueEmail(), used_for_auth: true }));
    expect(await json<Channel>(await patch(user, channel.id, {}))).toMatchObject({ used_for_auth: true });
    expect((await eventsOf(user.userId)).map((e) => e.type)).toEqual(["user.created"]);
  });

  it("refuses another channel's value, a sign-in address of someone else, and unknown channels", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail() });
    await expectTextError(
      await patch(user, channel.id, { value: user.email }),
      400,
      "Contact channel already exists",
    );
    const owner = await signUp();
    const notForAuth = await create(user, { value: owner.email });
    await expectKnownError(
      await patch(user, notForAuth.id, { used_for_auth: true }),
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      { type: "email", contact_channel_value: owner.email, would_work_if_email_was_verified: false },
    );
    const own = await json<Channel>(await patch(user, channel.id, { used_for_auth: true }));
    expect(own.used_for_auth).toBe(true);
    // Moving an auth-enabled channel onto someone else's sign-in address.
    const otherOwner = await signUp();
    await expectKnownError(
      await patch(user, channel.id, { value: otherOwner.email.toUpperCase() }),
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      {
        type: "email",
        contact_channel_value: otherOwner.email.toUpperCase(),
        would_work_if_email_was_verified: false,
      },
    );
    expect((await list(user)).find((c) => c.id === channel.id)).toEqual(own);
    await expectTextError(
      await patch(user, randomUUID(), { is_primary: true }),
      400,
      "Contact channel not found",
    );
    await expectKnownError(
      await call("PATCH", channelPath(randomUUID(), channel.id), {}, { type: "server" }),
      "USER_NOT_FOUND",
    );
  });

  it("rejects bad bodies with SCHEMA_ERROR, and is_verified from a client", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail() });
    const error = await expectKnownError(
      await patch(user, channel.id, { is_verified: true }),
      "SCHEMA_ERROR",
    );
    expect(error.message).toBe(
      `Request validation failed on PATCH /api/v1/contact-channels/me/${channel.id}:\n  - body contains unknown properties: is_verified`,
    );
    for (const bad of [
      { value: "nope" },
      { type: "sms" },
      { used_for_auth: null },
      { is_primary: "true" },
      { x: 1 },
    ]) {
      await expectKnownError(await patch(user, channel.id, bad), "SCHEMA_ERROR");
    }
    expect((await list(user)).find((c) => c.id === channel.id)).toEqual(channel);
  });
});

describe("sign-in by a contact channel", () => {
  it("an auth-enabled channel signs the user in with the password; without it, or deleted, it does not", async () => {
    const user = await signUp();
    const address = uniqueEmail("second");
    const channel = await create(user, { value: address, used_for_auth: false });
    await expectKnownError(await signIn(address), "EMAIL_PASSWORD_MISMATCH");
    await json<Channel>(await patch(user, channel.id, { used_for_auth: true }));
    const signedIn = await json<{ user_id: string }>(await signIn(address.toUpperCase()));
    expect(signedIn.user_id).toBe(user.userId);
    await json<Channel>(await patch(user, channel.id, { used_for_auth: false }));
    await expectKnownError(await signIn(address), "EMAIL_PASSWORD_MISMATCH");
    await json<Channel>(await patch(user, channel.id, { used_for_auth: true }));
    expect((await json<{ user_id: string }>(await signIn(address))).user_id).toBe(user.userId);

    expect(
      await json(await call("DELETE", channelPath("me", channel.id), {}, { token: user.token })),
    ).toEqual({
      success: true,
    });
    await expectKnownError(await signIn(address), "EMAIL_PASSWORD_MISMATCH");
    // The address is free again for someone else.
    const next = await signUp();
    expect(await create(next, { value: address, used_for_auth: true })).toMatchObject({
      used_for_auth: true,
    });
  });

  it("a channel created auth-enabled signs in at once", async () => {
    const user = await signUp();
    const address = uniqueEmail("created");
    await create(user, { value: address, used_for_auth: true });
    expect((await json<{ user_id: string }>(await signIn(address))).user_id).toBe(user.userId);
  });
});

describe("DELETE /contact-channels/{user_id}/{contact_channel_id}", () => {
  it("deletes a channel; the primary one leaves the user without a primary e-mail", async () => {
    const user = await signUp();
    const extra = await create(user, { value: uniqueEmail() });
    expect(
      await json(await call("DELETE", channelPath(user.userId, extra.id), undefined, { type: "server" })),
    ).toEqual({ success: true });
    expect((await eventsOf(user.userId)).map((e) => e.type)).toEqual(["user.created"]);
    const [primary] = await list(user);
    expect(
      await json(await call("DELETE", channelPath("me", primary!.id), {}, { token: user.token })),
    ).toEqual({
      success: true,
    });
    expect(await list(user)).toEqual([]);
    expect(await readMe(user)).toMatchObject({ primary_email: null });
    expect(await eventsOf(user.userId)).toEqual([
      { type: "user.created", primary_email: user.email },
      { type: "user.updated", primary_email: null },
    ]);
    await expectKnownError(await signIn(user.email), "EMAIL_PASSWORD_MISMATCH");
  });

  it("answers not found twice, USER_NOT_FOUND for unknown users, SCHEMA_ERROR for a body", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail() });
    await json(await call("DELETE", channelPath("me", channel.id), {}, { token: user.token }));
    await expectTextError(
      await call("DELETE", channelPath("me", channel.id), {}, { token: user.token }),
      400,
      "Contact channel not found",
    );
    await expectKnownError(
      await call("DELETE", channelPath(randomUUID(), channel.id), undefined, { type: "admin" }),
      "USER_NOT_FOUND",
    );
    const [primary] = await list(user);
    await expectKnownError(
      await call("DELETE", channelPath("me", primary!.id), { really: true }, { token: user.token }),
      "SCHEMA_ERROR",
    );
    expect(await list(user)).toEqual([primary]);
  });
});

describe("POST /contact-channels/{user_id}/{contact_channel_id}/send-verification-code", () => {
  const send = (
    user: User,
    channelId: string,
    body: unknown = { callback_url: CALLBACK },
    opts: CallOptions = {},
  ) =>
    call("POST", `${channelPath("me", channelId)}/send-verification-code`, body, {
      token: user.token,
      ...opts,
    });

  async function verificationEmails(to: string) {
    const res = await call("GET", `${EMAILS}?to=${encodeURIComponent(to)}`, undefined, { type: "admin" });
    const body = await json<{ items: { template_type: string; text: string | null; subject: string }[] }>(
      res,
    );
    return body.items.filter((e) => e.template_type === "email_verification");
  }

  it("e-mails a link whose code verifies the channel; a verified channel gets no second e-mail", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail("verify") });
    expect(await json(await send(user, channel.id))).toEqual({ success: true });
    const [mail] = await verificationEmails(channel.value);
    expect(mail?.subject).toBe("Verify your email at Channels");
    const link = new URL(firstLink(mail?.text ?? null) ?? "");
    expect(`${link.origin}${link.pathname}`).toBe(CALLBACK);
    const code = link.searchParams.get("code");
    expect(code).toMatch(/^[0-9a-z]{45}$/);

    // No user is needed to use the link.
    expect(await json(await call("POST", VERIFY, { code }))).toEqual({ success: true });
    expect((await list(user)).find((c) => c.id === channel.id)).toEqual({ ...channel, is_verified: true });
    await expectKnownError(await send(user, channel.id), "EMAIL_ALREADY_VERIFIED");
    expect(await verificationEmails(channel.value)).toHaveLength(1);
  });

  it("binds the code to the address: after a change of value the code is not found", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail("rebound") });
    const path = `${channelPath(user.userId, channel.id)}/send-verification-code`;
    await json(await call("POST", path, { callback_url: CALLBACK }, { type: "server" }));
    const [mail] = await verificationEmails(channel.value);
    const code = new URL(firstLink(mail?.text ?? null) ?? "").searchParams.get("code");
    await json<Channel>(await patch(user, channel.id, { value: uniqueEmail() }));
    await expectKnownError(await call("POST", VERIFY, { code }), "VERIFICATION_CODE_NOT_FOUND");
  });

  it("refuses untrusted callbacks, unknown channels and bad bodies; limits e-mails per address", async () => {
    const user = await signUp();
    const channel = await create(user, { value: uniqueEmail("limited") });
    await expectKnownError(
      await send(user, channel.id, { callback_url: "https://evil.test/verify" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect(await verificationEmails(channel.value)).toHaveLength(0);
    await expectTextError(await send(user, randomUUID()), 404, "Contact channel not found");
    await expectKnownError(await send(user, channel.id, {}), "SCHEMA_ERROR");
    await expectKnownError(
      await send(user, channel.id, { callback_url: "ftp://app.example.com/x" }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(
      await call(
        "POST",
        `${channelPath(randomUUID(), channel.id)}/send-verification-code`,
        { callback_url: CALLBACK },
        { type: "server" },
      ),
      "USER_NOT_FOUND",
    );
    for (let i = 0; i < 5; i++) expect((await send(user, channel.id)).status).toBe(200);
    const limited = await send(user, channel.id);
    expect(limited.status).toBe(429);
    expect(await verificationEmails(channel.value)).toHaveLength(5);
  });
});

describe("who may call", () => {
  /** One request per endpoint (to be sent one after the other), naming `userId` and `channelId`. */
  function everyEndpoint(userId: string, channelId: string, opts: CallOptions) {
    const one = channelPath(userId, channelId);
    return [
      () =>
        call(
          "POST",
          CHANNELS,
          { user_id: userId, value: uniqueEmail(), type: "email", used_for_auth: false },
          opts,
        ),
      () => call("GET", `${CHANNELS}?user_id=${userId}`, undefined, opts),
      () => call("GET", one, undefined, opts),
      () => call("PATCH", one, { used_for_auth: false }, opts),
      () => call("POST", `${one}/send-verification-code`, { callback_url: CALLBACK }, opts),
      () => call("DELETE", one, {}, opts),
    ];
  }

  it("a client naming another user gets the 403 text on every endpoint", async () => {
    const user = await signUp();
    const victim = await signUp();
    const [channel] = await list(victim, "", { type: "server", token: undefined });
    for (const send of everyEndpoint(victim.userId, channel!.id, { token: user.token })) {
      await expectTextError(await send(), 403, FORBIDDEN);
    }
    // Without a user, a client may name nobody.
    for (const send of everyEndpoint(victim.userId, channel!.id, {})) {
      await expectTextError(await send(), 403, FORBIDDEN);
    }
    expect(await list(victim, "", { type: "server", token: undefined })).toEqual([channel]);
  });

  it("`me` without a user is CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    for (const send of everyEndpoint("me", randomUUID(), {})) {
      await expectKnownError(await send(), "CANNOT_GET_OWN_USER_WITHOUT_USER");
    }
  });

  it("server and admin callers may act on any user; no access type is ACCESS_TYPE_REQUIRED", async () => {
    for (const type of ["server", "admin"] as const) {
      const user = await signUp();
      const channel = await create(user, { value: uniqueEmail() });
      const statuses = [];
      for (const send of everyEndpoint(user.userId, channel.id, { type }))
        statuses.push((await send()).status);
      expect(statuses).toEqual([201, 200, 200, 200, 200, 200]);
    }
    const user = await signUp();
    for (const send of everyEndpoint(user.userId, randomUUID(), { type: null, token: user.token })) {
      await expectKnownError(await send(), "ACCESS_TYPE_REQUIRED");
    }
  });

  it("an anonymous user manages its own channels when anonymous users are allowed", async () => {
    const anon = await json<{ access_token: string; user_id: string }>(await call("POST", ANONYMOUS, {}));
    const headers = { "x-stack-allow-anonymous-user": "true" };
    const body = { user_id: "me", value: uniqueEmail("anon"), type: "email", used_for_auth: false };
    await expectKnownError(
      await call("POST", CHANNELS, body, { token: anon.access_token }),
      "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
    );
    const channel = await json<Channel>(
      await call("POST", CHANNELS, body, { token: anon.access_token, headers }),
      201,
    );
    expect(channel).toMatchObject({ user_id: anon.user_id, value: body.value });
  });
});

describe("simultaneous claims of one sign-in address", () => {
  it("two users creating the same auth-enabled address: exactly one wins", async () => {
    const [first, second] = [await signUp(), await signUp()];
    const value = uniqueEmail("contested");
    const body = { user_id: "me", value, type: "email", used_for_auth: true };
    const answers = await Promise.all(
      [first, second].map((u) => call("POST", CHANNELS, body, { token: u.token })),
    );
    await expectOneWinner(answers, 201, [value, value]);
    const owners = await claimants(value, [first, second]);
    expect(owners).toHaveLength(1);
    expect((await json<{ user_id: string }>(await signIn(value))).user_id).toBe(owners[0]);
  });

  it("two users turning on sign-in for the same address: exactly one wins", async () => {
    const [first, second] = [await signUp(), await signUp()];
    const value = uniqueEmail("contested");
    const channels = [await create(first, { value }), await create(second, { value: value.toUpperCase() })];
    const answers = await Promise.all(
      [first, second].map((u, i) => patch(u, channels[i]!.id, { used_for_auth: true })),
    );
    await expectOneWinner(answers, 200, [value, value.toUpperCase()]);
    expect(await claimants(value, [first, second])).toHaveLength(1);
  });

  /** One answer is `winnerStatus`, the other the conflict (409), for the value that loser sent. */
  async function expectOneWinner(answers: Response[], winnerStatus: number, values: string[]) {
    expect(answers.map((r) => r.status).sort()).toEqual([winnerStatus, 409].sort());
    const loserIndex = answers.findIndex((r) => r.status === 409);
    await expectKnownError(answers[loserIndex]!, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
      type: "email",
      contact_channel_value: values[loserIndex],
      would_work_if_email_was_verified: false,
    });
  }

  /** The users among `users` whose channel for `value` signs them in. */
  async function claimants(value: string, users: User[]): Promise<string[]> {
    const result: string[] = [];
    for (const u of users) {
      const channels = await list(u, "", { type: "server", token: undefined });
      if (channels.some((c) => c.value.toLowerCase() === value && c.used_for_auth)) result.push(u.userId);
    }
    return result;
  }
});
