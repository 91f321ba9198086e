// Team invitations over HTTP (WIRE.md §4.11, §5.1, §5.2, §6): sending the e-mail, listing by team and by recipient,
// revoking, accepting with the code (check-code, details) and by id, the access matrix, expiry, restricted users,
// deleted teams, webhook events and concurrent accepts.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { firstLink } from "../email/worker.ts";
import type { Project } from "../services/projects.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";
import type { WebhookEvent } from "../webhooks/events.ts";

const BASE = "/api/v1/team-invitations";
const SEND = `${BASE}/send-code`;
const ACCEPT = `${BASE}/accept`;
const CHECK = `${BASE}/accept/check-code`;
const DETAILS = `${BASE}/accept/details`;
const DOMAIN = "https://app.example.com";
const CALLBACK = `${DOMAIN}/handler/team-invitation?after=1`;
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const CODE = /^[0-9abcdefghjkmnpqrstvwxyz]{45}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Access = "client" | "server" | "admin";
type User = { accessToken: string; userId: string; email: string };
type Invitation = {
  id: string;
  team_id: string;
  team_display_name: string;
  expires_at_millis: number;
  recipient_email: string;
};

let server: TestServer;
let keys: ProjectKeys;
let project: Project;

beforeAll(async () => {
  server = await createTestServer();
  const created = await server.createProject(
    { displayName: "Invitations", config: { domains: [{ domain: DOMAIN, handler_path: "/handler" }] } },
    { expiresAt: new Date("2099-12-31T00:00:00Z") },
  );
  keys = created.keys;
  project = created.project;
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});
// Each test starts in a new minute, so per-minute limits on code submissions never carry over between tests.
beforeEach(() => {
  server.clock.advance(MINUTE + 1000);
});

async function signIn(opts: { email?: string; audience?: "anonymous" | "restricted" } = {}): Promise<User> {
  const email = opts.email ?? uniqueEmail();
  const { accessToken, userId } = await server.signIn(keys.projectId, {
    ...(opts.audience ? { audience: opts.audience } : { email }),
  });
  return { accessToken, userId, email };
}

function headers(type: Access, user?: User, extra: Record<string, string> = {}) {
  return {
    ...accessHeaders(type, keys),
    ...(user ? { "x-stack-access-token": user.accessToken } : {}),
    "content-type": "application/json",
    ...extra,
  };
}

const post = (path: string, body: unknown, type: Access, user?: User, extra: Record<string, string> = {}) =>
  server.request(path, { method: "POST", headers: headers(type, user, extra), body: JSON.stringify(body) });
const get = (path: string, type: Access, user?: User) =>
  server.request(path, { headers: headers(type, user) });
const del = (path: string, type: Access, user?: User) =>
  server.request(path, { method: "DELETE", headers: headers(type, user), body: "{}" });

async function makeTeam(displayName: string, creatorUserId?: string): Promise<string> {
  const team = await inTransaction(server.deps.db, (tx) =>
    server.deps.teams.create(tx, project, { displayName }, creatorUserId),
  );
  return team.id;
}

/** A member holding exactly `permissions` (the member defaults are taken away first). */
async function memberWith(teamId: string, permissions: string[]): Promise<User> {
  const user = await signIn();
  await inTransaction(server.deps.db, async (tx) => {
    await server.deps.teams.addMember(tx, project, teamId, user.userId, "member");
    await server.deps.teams.revoke(tx, project.id, {
      teamId,
      userId: user.userId,
      permissionId: "team_member",
    });
    for (const permissionId of permissions) {
      await server.deps.teams.grant(tx, project.id, { teamId, userId: user.userId, permissionId });
    }
  });
  return user;
}

async function addChannel(userId: string, value: string, isVerified: boolean) {
  await inTransaction(server.deps.db, (tx) =>
    server.deps.usersRepo.insertChannel(tx, {
      id: randomUUID(),
      projectId: project.id,
      userId,
      value,
      normalized: value.toLowerCase(),
      isVerified,
      isPrimary: false,
      usedForAuth: false,
      createdAt: server.clock.now(),
    }),
  );
}

/** Sends an invitation as the server; returns its id and the code of the e-mailed link. */
async function invite(teamId: string, email: string): Promise<{ id: string; code: string }> {
  const { id } = await expectJson<{ id: string }>(
    await post(SEND, { team_id: teamId, email, callback_url: CALLBACK }, "server"),
  );
  const [mail] = await server.deps.outbox.list(project.id, { to: email, limit: 1 });
  const code = new URL(firstLink(mail?.text ?? null) ?? "").searchParams.get("code");
  expect(code).toMatch(CODE);
  return { id, code: code as string };
}

const listFor = async (query: string, type: Access, user?: User) =>
  (await expectJson<{ items: Invitation[]; is_paginated: false }>(await get(`${BASE}?${query}`, type, user)))
    .items;

const isMember = async (teamId: string, userId: string) =>
  (await server.deps.teamsRepo.findMember(teamId, userId)) !== undefined;

/** Events recorded while `action` ran. */
async function eventsDuring(action: () => Promise<unknown>): Promise<WebhookEvent[]> {
  const before = (await server.deps.events.list(project.id)).length;
  await action();
  return (await server.deps.events.list(project.id)).slice(before);
}

const joinedEvents = (teamId: string, userId: string): WebhookEvent[] => [
  { type: "team_membership.created", data: { team_id: teamId, user_id: userId } },
  { type: "team_permission.created", data: { id: "team_member", team_id: teamId, user_id: userId } },
];

describe("POST /team-invitations/send-code", () => {
  it("e-mails the invitation link and answers the invitation id", async () => {
    const teamId = await makeTeam("Rocket & Co");
    const email = uniqueEmail("invitee");
    const res = await post(SEND, { team_id: teamId, email, callback_url: CALLBACK }, "server");
    const body = await expectJson<{ success: true; id: string }>(res);
    expect(body).toEqual({ success: true, id: expect.stringMatching(UUID) });

    const [mail] = await server.deps.outbox.list(project.id, { to: email });
    expect(mail).toMatchObject({
      to: email,
      template_type: "team_invitation",
      subject: "You have been invited to join Rocket & Co",
    });
    expect(mail?.html).toContain("Rocket &amp; Co");
    const link = new URL(firstLink(mail?.text ?? null) ?? "");
    expect(`${link.origin}${link.pathname}`).toBe(`${DOMAIN}/handler/team-invitation`);
    expect(link.searchParams.get("after")).toBe("1");
    expect(link.searchParams.get("code")).toMatch(CODE);

    expect(await listFor(`team_id=${teamId}`, "server")).toEqual([
      {
        id: body.id,
        team_id: teamId,
        team_display_name: "Rocket & Co",
        expires_at_millis: server.clock.now().getTime() + 7 * DAY,
        recipient_email: email,
      },
    ]);
  });

  it("lets a client member with $invite_members invite, and admins too", async () => {
    const creator = await signIn();
    const teamId = await makeTeam("Creators", creator.userId);
    const inviter = await memberWith(teamId, ["$invite_members"]);
    for (const [type, user] of [
      ["client", creator],
      ["client", inviter],
      ["admin", undefined],
    ] as const) {
      const res = await post(
        SEND,
        { team_id: teamId, email: uniqueEmail(), callback_url: CALLBACK },
        type,
        user,
      );
      expect((await expectJson<{ success: boolean }>(res)).success).toBe(true);
    }
    expect(await listFor(`team_id=${teamId}`, "admin")).toHaveLength(3);
  });

  it("refuses clients outside the team or without $invite_members", async () => {
    const teamId = await makeTeam("Closed");
    const outsider = await signIn();
    const reader = await memberWith(teamId, ["$read_members"]);
    const body = { team_id: teamId, email: uniqueEmail(), callback_url: CALLBACK };
    await expectKnownError(await post(SEND, body, "client", outsider), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: teamId,
      user_id: outsider.userId,
    });
    await expectKnownError(await post(SEND, body, "client", reader), "TEAM_PERMISSION_REQUIRED", {
      team_id: teamId,
      user_id: reader.userId,
      permission_id: "$invite_members",
    });
    await expectKnownError(await post(SEND, body, "client"), "USER_AUTHENTICATION_REQUIRED");
    const noAccessType = await server.request(SEND, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await expectKnownError(noAccessType, "ACCESS_TYPE_REQUIRED");
    expect(await server.deps.outbox.list(project.id, { to: body.email })).toEqual([]);
  });

  it("answers TEAM_NOT_FOUND, REDIRECT_URL_NOT_WHITELISTED and SCHEMA_ERROR", async () => {
    const user = await signIn();
    const teamId = await makeTeam("Checked", user.userId);
    const unknown = randomUUID();
    const email = uniqueEmail();
    for (const [type, who] of [
      ["server", undefined],
      ["client", user],
    ] as const) {
      await expectKnownError(
        await post(SEND, { team_id: unknown, email, callback_url: CALLBACK }, type, who),
        "TEAM_NOT_FOUND",
        { team_id: unknown },
      );
    }
    await expectKnownError(
      await post(
        SEND,
        { team_id: teamId, email, callback_url: "https://evil.example.org/x" },
        "client",
        user,
      ),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    for (const body of [
      { team_id: teamId, email },
      { team_id: teamId, email: "not-an-email", callback_url: CALLBACK },
      { team_id: "not-a-uuid", email, callback_url: CALLBACK },
      { team_id: teamId, email, callback_url: "ftp://app.example.com/x" },
      { team_id: teamId, email, callback_url: CALLBACK, permission_ids: [] },
    ]) {
      await expectKnownError(await post(SEND, body, "server"), "SCHEMA_ERROR");
    }
    expect(await server.deps.outbox.list(project.id, { to: email })).toEqual([]);
  });

  it("limits e-mails to one address to 5 per window, whatever its case", async () => {
    const teamId = await makeTeam("Spam");
    const email = uniqueEmail("limited");
    for (let i = 0; i < 5; i++) {
      const address = i % 2 === 0 ? email : email.toUpperCase();
      expect(
        (await post(SEND, { team_id: teamId, email: address, callback_url: CALLBACK }, "server")).status,
      ).toBe(200);
    }
    await expectTextError(
      await post(SEND, { team_id: teamId, email, callback_url: CALLBACK }, "server"),
      429,
      "Too many requests. Please try again later.",
    );
  });
});

describe("GET /team-invitations", () => {
  it("needs exactly one of team_id and user_id", async () => {
    const teamId = await makeTeam("Either");
    const text = "Exactly one of team_id and user_id must be given.";
    await expectTextError(await get(BASE, "server"), 400, text);
    await expectTextError(
      await get(`${BASE}?team_id=${teamId}&user_id=${randomUUID()}`, "server"),
      400,
      text,
    );
    await expectKnownError(await get(`${BASE}?team_id=nope`, "server"), "SCHEMA_ERROR");
    await expectKnownError(await get(`${BASE}?team_id=${teamId}&extra=1`, "server"), "SCHEMA_ERROR");
  });

  it("lists a team's pending invitations for members with $read_members and $invite_members", async () => {
    const creator = await signIn();
    const teamId = await makeTeam("Listed", creator.userId);
    const otherTeam = await makeTeam("Elsewhere");
    const first = await invite(teamId, uniqueEmail());
    server.clock.advance(1); // oldest first
    const second = await invite(teamId, uniqueEmail());
    await invite(otherTeam, uniqueEmail());
    const member = await memberWith(teamId, ["team_member"]);

    for (const [type, user] of [
      ["client", creator],
      ["client", member],
      ["server", undefined],
      ["admin", undefined],
    ] as const) {
      const items = await listFor(`team_id=${teamId}`, type, user);
      expect(items.map((i) => i.id)).toEqual([first.id, second.id]);
      expect(items.every((i) => i.team_display_name === "Listed")).toBe(true);
    }

    const readerOnly = await memberWith(teamId, ["$read_members"]);
    const inviterOnly = await memberWith(teamId, ["$invite_members"]);
    const outsider = await signIn();
    const path = `${BASE}?team_id=${teamId}`;
    await expectKnownError(await get(path, "client", readerOnly), "TEAM_PERMISSION_REQUIRED", {
      team_id: teamId,
      user_id: readerOnly.userId,
      permission_id: "$invite_members",
    });
    await expectKnownError(await get(path, "client", inviterOnly), "TEAM_PERMISSION_REQUIRED", {
      team_id: teamId,
      user_id: inviterOnly.userId,
      permission_id: "$read_members",
    });
    await expectKnownError(await get(path, "client", outsider), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: teamId,
      user_id: outsider.userId,
    });
    const unknown = randomUUID();
    await expectKnownError(await get(`${BASE}?team_id=${unknown}`, "server"), "TEAM_NOT_FOUND", {
      team_id: unknown,
    });
    await expectKnownError(await server.request(path), "ACCESS_TYPE_REQUIRED");
  });

  it("lists a user's pending invitations to verified addresses, case-insensitively", async () => {
    const email = uniqueEmail("recipient");
    const alpha = await makeTeam("Alpha");
    const beta = await makeTeam("Beta");
    const gone = await makeTeam("Gone");
    await invite(alpha, email); // expires before the user looks
    server.clock.advance(7 * DAY + 1);

    const user = await signIn({ email });
    const secondary = uniqueEmail("Second").toUpperCase();
    const unverified = uniqueEmail("unverified");
    await addChannel(user.userId, secondary, true);
    await addChannel(user.userId, unverified, false);

    const shouted = await invite(alpha, email.toUpperCase());
    const expiresAt = server.clock.now().getTime() + 7 * DAY;
    server.clock.advance(1); // oldest first
    const toSecondary = await invite(beta, secondary.toLowerCase());
    await invite(alpha, unverified);
    const used = await invite(beta, email);
    await invite(gone, email);
    await invite(alpha, uniqueEmail("someone-else"));
    await expectJson(await post(ACCEPT, { code: used.code }, "client", await signIn()));
    await inTransaction(server.deps.db, (tx) => server.deps.teamsRepo.deleteTeam(tx, gone));

    const expected = [
      {
        id: shouted.id,
        team_id: alpha,
        team_display_name: "Alpha",
        expires_at_millis: expiresAt,
        recipient_email: email.toUpperCase(),
      },
      {
        id: toSecondary.id,
        team_id: beta,
        team_display_name: "Beta",
        expires_at_millis: expiresAt + 1,
        recipient_email: secondary.toLowerCase(),
      },
    ];
    expect(await listFor("user_id=me", "client", user)).toEqual(expected);
    expect(await listFor(`user_id=${user.userId}`, "client", user)).toEqual(expected);
    expect(await listFor(`user_id=${user.userId}`, "server")).toEqual(expected);
    expect(await listFor(`user_id=${randomUUID()}`, "admin")).toEqual([]);
  });

  it("lets a client list only its own invitations", async () => {
    const user = await signIn();
    const other = await signIn();
    await expectTextError(
      await get(`${BASE}?user_id=${other.userId}`, "client", user),
      403,
      "Client can only list invitations for their own user.",
    );
    await expectKnownError(await get(`${BASE}?user_id=me`, "client"), "CANNOT_GET_OWN_USER_WITHOUT_USER");
    await expectKnownError(
      await get(`${BASE}?user_id=${other.userId}`, "client"),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await expectKnownError(await get(`${BASE}?user_id=someone`, "client", user), "SCHEMA_ERROR");
  });
});

describe("DELETE /team-invitations/{id}", () => {
  it("revokes an invitation, whose code then no longer works", async () => {
    const teamId = await makeTeam("Revoking");
    const invitation = await invite(teamId, uniqueEmail());
    const kept = await invite(teamId, uniqueEmail());
    expect(await expectJson(await del(`${BASE}/${invitation.id}?team_id=${teamId}`, "server"))).toEqual({
      success: true,
    });
    expect((await listFor(`team_id=${teamId}`, "server")).map((i) => i.id)).toEqual([kept.id]);
    await expectKnownError(
      await post(ACCEPT, { code: invitation.code }, "client", await signIn()),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await expectTextError(
      await del(`${BASE}/${invitation.id}?team_id=${teamId}`, "server"),
      404,
      "Team invitation not found.",
    );
  });

  it("answers not found for unknown ids and for another team's invitation", async () => {
    const teamId = await makeTeam("Mine");
    const otherTeam = await makeTeam("Theirs");
    const theirs = await invite(otherTeam, uniqueEmail());
    for (const id of [randomUUID(), theirs.id]) {
      await expectTextError(
        await del(`${BASE}/${id}?team_id=${teamId}`, "admin"),
        404,
        "Team invitation not found.",
      );
    }
    expect(await listFor(`team_id=${otherTeam}`, "server")).toHaveLength(1);
    const unknownTeam = randomUUID();
    await expectKnownError(
      await del(`${BASE}/${theirs.id}?team_id=${unknownTeam}`, "server"),
      "TEAM_NOT_FOUND",
      {
        team_id: unknownTeam,
      },
    );
    await expectKnownError(await del(`${BASE}/${theirs.id}`, "server"), "SCHEMA_ERROR");
    await expectKnownError(await del(`${BASE}/nope?team_id=${teamId}`, "server"), "SCHEMA_ERROR");
    const withBody = await server.request(`${BASE}/${theirs.id}?team_id=${otherTeam}`, {
      method: "DELETE",
      headers: headers("server"),
      body: JSON.stringify({ force: true }),
    });
    await expectKnownError(withBody, "SCHEMA_ERROR");
  });

  it("needs $remove_members from a client member", async () => {
    const creator = await signIn();
    const teamId = await makeTeam("Guarded", creator.userId);
    const member = await memberWith(teamId, ["team_member"]);
    const remover = await memberWith(teamId, ["$remove_members"]);
    const outsider = await signIn();
    const first = await invite(teamId, uniqueEmail());
    const second = await invite(teamId, uniqueEmail());
    const path = (id: string) => `${BASE}/${id}?team_id=${teamId}`;

    await expectKnownError(await del(path(first.id), "client", member), "TEAM_PERMISSION_REQUIRED", {
      team_id: teamId,
      user_id: member.userId,
      permission_id: "$remove_members",
    });
    await expectKnownError(await del(path(first.id), "client", outsider), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: teamId,
      user_id: outsider.userId,
    });
    await expectKnownError(await del(path(first.id), "client"), "USER_AUTHENTICATION_REQUIRED");
    expect(await expectJson(await del(path(first.id), "client", remover))).toEqual({ success: true });
    expect(await expectJson(await del(path(second.id), "client", creator))).toEqual({ success: true });
    expect(await listFor(`team_id=${teamId}`, "server")).toEqual([]);
  });
});

describe("POST /team-invitations/accept", () => {
  it("adds the membership with the member defaults and records the events", async () => {
    const teamId = await makeTeam("Joined");
    const { code } = await invite(teamId, uniqueEmail());
    const user = await signIn();
    const events = await eventsDuring(async () => {
      expect(await expectJson(await post(ACCEPT, { code: code.toUpperCase() }, "client", user))).toEqual({});
    });
    expect(events).toEqual(joinedEvents(teamId, user.userId));
    expect(await isMember(teamId, user.userId)).toBe(true);
    expect(await server.deps.teamsRepo.listGrants(project.id, { teamId, userId: user.userId })).toEqual([
      { teamId, userId: user.userId, permissionId: "team_member" },
    ]);
    // The member defaults include $read_members and $invite_members.
    expect(await listFor(`team_id=${teamId}`, "client", user)).toEqual([]);

    await expectKnownError(await post(ACCEPT, { code }, "client", user), "VERIFICATION_CODE_ALREADY_USED");
    await expectKnownError(await post(CHECK, { code }, "client", user), "VERIFICATION_CODE_ALREADY_USED");
    await expectKnownError(await post(DETAILS, { code }, "client", user), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("changes nothing for a user who already is a member, but uses the code", async () => {
    const creator = await signIn();
    const teamId = await makeTeam("Already", creator.userId);
    const { code } = await invite(teamId, uniqueEmail());
    const events = await eventsDuring(async () => {
      expect(await expectJson(await post(ACCEPT, { code }, "client", creator))).toEqual({});
    });
    expect(events).toEqual([]);
    expect(await server.deps.teamsRepo.listGrants(project.id, { teamId, userId: creator.userId })).toEqual([
      { teamId, userId: creator.userId, permissionId: "team_admin" },
    ]);
    await expectKnownError(await post(ACCEPT, { code }, "client", creator), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("works for server and admin callers with a user token", async () => {
    const teamId = await makeTeam("Backend");
    for (const type of ["server", "admin"] as const) {
      const { code } = await invite(teamId, uniqueEmail());
      const user = await signIn();
      expect(await expectJson(await post(ACCEPT, { code }, type, user))).toEqual({});
      expect(await isMember(teamId, user.userId)).toBe(true);
    }
  });

  it("refuses expired codes", async () => {
    const teamId = await makeTeam("Late");
    const { code } = await invite(teamId, uniqueEmail());
    server.clock.advance(7 * DAY + 1);
    const user = await signIn();
    await expectKnownError(await post(CHECK, { code }, "client", user), "VERIFICATION_CODE_EXPIRED");
    await expectKnownError(await post(ACCEPT, { code }, "client", user), "VERIFICATION_CODE_EXPIRED");
    expect(await isMember(teamId, user.userId)).toBe(false);
  });

  it("refuses anonymous and restricted users without using the code", async () => {
    const teamId = await makeTeam("Onboarded only");
    const { code } = await invite(teamId, uniqueEmail());
    const anonymous = await signIn({ audience: "anonymous" });
    const restricted = await signIn({ audience: "restricted" });
    await expectKnownError(
      await post(ACCEPT, { code }, "client", anonymous, { "x-stack-allow-anonymous-user": "true" }),
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      { restricted_reason: { type: "anonymous" } },
    );
    await expectKnownError(
      await post(ACCEPT, { code }, "client", restricted, { "x-stack-allow-restricted-user": "true" }),
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      { restricted_reason: { type: "restricted_by_administrator" } },
    );
    await expectKnownError(
      await post(ACCEPT, { code }, "client", anonymous),
      "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
    );
    expect(await isMember(teamId, anonymous.userId)).toBe(false);
    const user = await signIn();
    expect(await expectJson(await post(ACCEPT, { code }, "client", user))).toEqual({});
  });

  it("answers the verification-code and schema errors", async () => {
    const teamId = await makeTeam("Errors");
    const { code } = await invite(teamId, uniqueEmail());
    const user = await signIn();
    const unknown = "0".repeat(45);
    for (const path of [ACCEPT, CHECK, DETAILS]) {
      await expectKnownError(
        await post(path, { code: unknown }, "client", user),
        "VERIFICATION_CODE_NOT_FOUND",
      );
      await expectKnownError(await post(path, { code: code.slice(1) }, "client", user), "SCHEMA_ERROR");
      await expectKnownError(await post(path, { code, extra: 1 }, "client", user), "SCHEMA_ERROR");
      await expectKnownError(await post(path, {}, "client", user), "SCHEMA_ERROR");
      await expectKnownError(await post(path, { code }, "client"), "USER_AUTHENTICATION_REQUIRED");
    }
    // A code of another purpose is not an invitation.
    const { code: verification } = await server.deps.codes.create(server.deps.db, {
      projectId: project.id,
      purpose: "email_verification",
      data: { user_id: user.userId, email: user.email },
    });
    await expectKnownError(
      await post(ACCEPT, { code: verification }, "client", user),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    expect(await isMember(teamId, user.userId)).toBe(false);
  });

  it("stops a code after 20 submissions of its nonce", async () => {
    const teamId = await makeTeam("Guessed");
    const { code } = await invite(teamId, uniqueEmail());
    const user = await signIn();
    const wrong = `${"0".repeat(6)}${code.slice(6)}`;
    for (let i = 0; i < 19; i++) {
      await expectKnownError(
        await post(ACCEPT, { code: wrong }, "client", user),
        "VERIFICATION_CODE_NOT_FOUND",
      );
    }
    expect(await expectJson(await post(CHECK, { code }, "client", user))).toEqual({ is_code_valid: true });
    await expectKnownError(
      await post(ACCEPT, { code }, "client", user),
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    );
  });

  it("treats an invitation to a deleted team as not found", async () => {
    const teamId = await makeTeam("Deleted");
    const { id, code } = await invite(teamId, uniqueEmail());
    await inTransaction(server.deps.db, (tx) => server.deps.teamsRepo.deleteTeam(tx, teamId));
    const user = await signIn();
    for (const path of [CHECK, DETAILS, ACCEPT]) {
      await expectKnownError(await post(path, { code }, "client", user), "VERIFICATION_CODE_NOT_FOUND");
    }
    await expectKnownError(
      await post(`${BASE}/${id}/accept?user_id=me`, {}, "client", user),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });
});

describe("check-code and details", () => {
  it("describe the invitation without using it", async () => {
    const teamId = await makeTeam("Described");
    const { code } = await invite(teamId, uniqueEmail());
    const user = await signIn();
    for (const type of ["client", "server"] as const) {
      expect(await expectJson(await post(CHECK, { code }, type, user))).toEqual({ is_code_valid: true });
      expect(await expectJson(await post(DETAILS, { code }, type, user))).toEqual({
        team_id: teamId,
        team_display_name: "Described",
      });
    }
    expect(await isMember(teamId, user.userId)).toBe(false);
    expect(await expectJson(await post(ACCEPT, { code }, "client", user))).toEqual({});
  });
});

describe("POST /team-invitations/{id}/accept", () => {
  const acceptPath = (id: string, userId = "me") => `${BASE}/${id}/accept?user_id=${userId}`;

  it("lets the owner of a verified recipient address join", async () => {
    const email = uniqueEmail("owner");
    const user = await signIn({ email });
    const teamId = await makeTeam("By id");
    const { id, code } = await invite(teamId, email.toUpperCase());
    const events = await eventsDuring(async () => {
      expect(await expectJson(await post(acceptPath(id), {}, "client", user))).toEqual({});
    });
    expect(events).toEqual(joinedEvents(teamId, user.userId));
    expect(await listFor("user_id=me", "client", user)).toEqual([]);
    await expectKnownError(await post(acceptPath(id), {}, "client", user), "VERIFICATION_CODE_NOT_FOUND");
    await expectKnownError(await post(ACCEPT, { code }, "client", user), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("refuses users without a verified recipient address", async () => {
    const teamId = await makeTeam("Not yours");
    const unverified = uniqueEmail("unverified");
    const user = await signIn();
    await addChannel(user.userId, unverified, false);
    const toUnverified = await invite(teamId, unverified);
    const toSomeoneElse = await invite(teamId, uniqueEmail());
    for (const { id } of [toUnverified, toSomeoneElse, { id: randomUUID() }]) {
      await expectKnownError(await post(acceptPath(id), {}, "client", user), "VERIFICATION_CODE_NOT_FOUND");
    }
    expect(await isMember(teamId, user.userId)).toBe(false);
    expect(await listFor(`team_id=${teamId}`, "server")).toHaveLength(2);
  });

  it("refuses expired invitations, restricted users and other users' ids", async () => {
    const email = uniqueEmail("late");
    const teamId = await makeTeam("Expiring");
    const { id } = await invite(teamId, email);
    server.clock.advance(7 * DAY + 1);
    const user = await signIn({ email });
    await expectKnownError(await post(acceptPath(id), {}, "client", user), "VERIFICATION_CODE_NOT_FOUND");

    const fresh = await invite(teamId, email);
    const other = await signIn();
    await expectTextError(
      await post(acceptPath(fresh.id, user.userId), {}, "client", other),
      403,
      "Client can only accept invitations for their own user.",
    );
    const anonymous = await signIn({ audience: "anonymous" });
    await expectKnownError(
      await post(acceptPath(fresh.id), {}, "client", anonymous, { "x-stack-allow-anonymous-user": "true" }),
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      { restricted_reason: { type: "anonymous" } },
    );
    await expectKnownError(
      await post(acceptPath(fresh.id), {}, "client"),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(await post(`${BASE}/${fresh.id}/accept`, {}, "client", user), "SCHEMA_ERROR");
    await expectKnownError(await post(acceptPath("nope"), {}, "client", user), "SCHEMA_ERROR");
    expect(await expectJson(await post(acceptPath(fresh.id, user.userId), {}, "client", user))).toEqual({});
    expect(await isMember(teamId, user.userId)).toBe(true);
  });

  it("lets server callers accept for the named user", async () => {
    const email = uniqueEmail("named");
    const named = await signIn({ email });
    const caller = await signIn();
    const teamId = await makeTeam("Server side");
    const { id } = await invite(teamId, email);
    await expectKnownError(await post(acceptPath(id, randomUUID()), {}, "server", caller), "USER_NOT_FOUND");
    expect(await expectJson(await post(acceptPath(id, named.userId), {}, "server", caller))).toEqual({});
    expect(await isMember(teamId, named.userId)).toBe(true);
    expect(await isMember(teamId, caller.userId)).toBe(false);
  });
});

describe("concurrent accepts", () => {
  const acceptPath = (id: string) => `${BASE}/${id}/accept?user_id=me`;

  it("joins once when the same user accepts two invitations to one team at the same time", async () => {
    const email = uniqueEmail("twice");
    const user = await signIn({ email });
    const teamId = await makeTeam("Race");
    const first = await invite(teamId, email);
    const second = await invite(teamId, email);
    const events = await eventsDuring(async () => {
      const answers = await Promise.all([
        post(ACCEPT, { code: first.code }, "client", user),
        post(ACCEPT, { code: second.code }, "client", user),
      ]);
      expect(answers.map((res) => res.status)).toEqual([200, 200]);
    });
    expect(events).toEqual(joinedEvents(teamId, user.userId));
    expect((await server.deps.teamsRepo.listMembers(teamId)).map((m) => m.userId)).toEqual([user.userId]);
  });

  it("uses one code once when it is submitted twice at the same time", async () => {
    const email = uniqueEmail("double");
    const user = await signIn({ email });
    const teamId = await makeTeam("Double");
    const byCode = await invite(teamId, email);
    const byId = await invite(teamId, email);
    const answers = await Promise.all([
      post(ACCEPT, { code: byCode.code }, "client", user),
      post(ACCEPT, { code: byCode.code }, "client", user),
      post(acceptPath(byId.id), {}, "client", user),
      post(acceptPath(byId.id), {}, "client", user),
    ]);
    const statuses = answers.map((res) => res.status);
    expect(statuses.slice(0, 2).sort()).toEqual([200, 409]);
    expect(statuses.slice(2).sort()).toEqual([200, 404]);
    expect((await server.deps.teamsRepo.listMembers(teamId)).map((m) => m.userId)).toEqual([user.userId]);
  });
});
