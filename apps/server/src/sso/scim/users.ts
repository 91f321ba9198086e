// SCIM Users of one team: create (a new account, or the project's account of the address when the team verified its
// domain, the rule SSO sign-in follows in ../provisioning.ts), read, filter, replace, patch, delete. Deactivation and
// deletion deprovision (membership.ts); the account itself stays, since it belongs to the project, not to the team.
import { KnownErrors } from "@gatehouse/contract";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import type { UsersRepo } from "../../db/users-repo.ts";
import type { Project } from "../../services/projects.ts";
import type { UserService } from "../../services/users.ts";
import type { WebhookEvents } from "../../webhooks/events.ts";
import type { SsoRepo } from "../repo.ts";
import { attribute, matches, parseFilter } from "./filter.ts";
import type { ScimMembership } from "./membership.ts";
import { applyPatch } from "./patch.ts";
import type { ScimRepo, ScimUserRow } from "./repo.ts";
import { listResponse, stringAttribute, userResource } from "./resources.ts";

type Json = Record<string, unknown>;
export type ScimScope = { project: Project; teamId: string; baseUrl: string };

export type ScimUsersDeps = {
  repo: ScimRepo;
  ssoRepo: SsoRepo;
  usersRepo: UsersRepo;
  users: UserService;
  events: WebhookEvents;
  membership: ScimMembership;
  now: () => Date;
};

const invalid = (reason: string) => KnownErrors.SCIM_INVALID_VALUE({ reason });
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What a User body says, validated: Entra ID sends `active` as the strings "True" and "False". */
function readUser(body: unknown) {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalid("the body must be a User.");
  const json = body as Json;
  const userName = stringAttribute(json, "userName")?.trim();
  if (!userName || userName.length > 256) throw invalid("userName must be a string of 1 to 256 characters.");
  const externalId = attribute(json, "externalId");
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string")
    throw invalid("externalId must be a string.");
  let active = attribute(json, "active");
  if (typeof active === "string" && /^(true|false)$/i.test(active)) active = active.toLowerCase() === "true";
  if (active === undefined || active === null) active = true;
  if (typeof active !== "boolean") throw invalid("active must be a boolean.");
  const emails = attribute(json, "emails");
  if (emails !== undefined && !Array.isArray(emails)) throw invalid("emails must be a list.");
  const listed = (emails ?? []) as Json[];
  const primary = listed.find((e) => attribute(e, "primary") === true) ?? listed[0];
  const primaryValue = primary ? attribute(primary, "value") : undefined;
  const candidate = typeof primaryValue === "string" ? primaryValue : userName;
  const email = EMAIL.test(candidate) && candidate.length <= 256 ? candidate.toLowerCase() : undefined;
  const name = attribute(json, "name");
  const displayName =
    stringAttribute(json, "displayName") ??
    (typeof name === "object" && name !== null
      ? (stringAttribute(name as Json, "formatted") ??
        ([stringAttribute(name as Json, "givenName"), stringAttribute(name as Json, "familyName")]
          .filter(Boolean)
          .join(" ") ||
          undefined))
      : undefined);
  return {
    userName,
    externalId: (externalId as string | null | undefined) ?? null,
    active,
    email,
    displayName,
    json,
  };
}

/** Two clients creating the same userName at once: the unique index decides, and the loser gets a 409, not a 500. */
async function uniquely<T>(userName: string, insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isUniqueViolation(error))
      throw KnownErrors.SCIM_UNIQUENESS({ attribute: "userName", value: userName });
    throw error;
  }
}

export function createScimUsers(deps: ScimUsersDeps) {
  async function groupsOf(tx: Db, teamId: string, userIds: string[]) {
    const groups = await deps.repo.listGroups(tx, teamId);
    const names = new Map(groups.map((g) => [g.id, g.displayName]));
    const byUser = new Map<string, { id: string; name: string }[]>(userIds.map((id) => [id, []]));
    for (const { groupId, userId } of await deps.repo.membersOf(
      tx,
      groups.map((g) => g.id),
    ))
      byUser.get(userId)?.push({ id: groupId, name: names.get(groupId) ?? "" });
    return byUser;
  }

  async function render(tx: Db, scope: ScimScope, row: ScimUserRow) {
    const groups = (await groupsOf(tx, scope.teamId, [row.userId])).get(row.userId) ?? [];
    return userResource(scope.baseUrl, row, groups);
  }

  async function find(tx: Db, scope: ScimScope, id: string): Promise<ScimUserRow> {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await deps.repo.findUser(tx, scope.teamId, id) : undefined;
    if (!row) throw KnownErrors.SCIM_RESOURCE_NOT_FOUND({ resource: "User", id: id.slice(0, 64) });
    return row;
  }

  async function assertFreeName(tx: Db, scope: ScimScope, userName: string, self?: string) {
    const taken = await deps.repo.findUserByName(tx, scope.teamId, userName);
    if (taken && taken.userId !== self)
      throw KnownErrors.SCIM_UNIQUENESS({ attribute: "userName", value: userName });
  }

  /** Stores a replacement and applies what changed in `active` to the membership and sessions. */
  async function replace(tx: Db, scope: ScimScope, current: ScimUserRow, body: unknown) {
    const user = readUser(body);
    await assertFreeName(tx, scope, user.userName, current.userId);
    const row = await deps.repo.updateUser(tx, scope.teamId, current.userId, {
      userName: user.userName,
      externalId: user.externalId,
      active: user.active,
      attributes: user.json,
      updatedAt: deps.now(),
    });
    if (!row) throw KnownErrors.SCIM_RESOURCE_NOT_FOUND({ resource: "User", id: current.userId });
    if (user.displayName !== undefined)
      await deps.usersRepo.update(tx, current.userId, { displayName: user.displayName });
    if (current.active && !user.active)
      await deps.membership.deactivate(tx, scope.project, scope.teamId, row.userId);
    if (!current.active && user.active)
      await deps.membership.activate(tx, scope.project, scope.teamId, row.userId);
    return render(tx, scope, row);
  }

  return {
    async list(tx: Db, scope: ScimScope, query: Record<string, string | undefined>) {
      const filter = query.filter ? parseFilter(query.filter) : undefined;
      const rows = await deps.repo.listUsers(tx, scope.teamId);
      const groups = await groupsOf(
        tx,
        scope.teamId,
        rows.map((r) => r.userId),
      );
      const resources = rows
        .map((row) => userResource(scope.baseUrl, row, groups.get(row.userId) ?? []))
        .filter((resource) => !filter || matches(resource, filter));
      return listResponse(resources, query);
    },

    async get(tx: Db, scope: ScimScope, id: string) {
      return render(tx, scope, await find(tx, scope, id));
    },

    async create(tx: Db, scope: ScimScope, body: unknown) {
      const user = readUser(body);
      await assertFreeName(tx, scope, user.userName);
      const { project, teamId } = scope;
      const domain = user.email?.split("@")[1];
      const verified = domain ? await deps.ssoRepo.findVerifiedDomain(tx, project.id, domain) : undefined;
      const domainOwned = verified?.teamId === teamId;
      const owner = user.email ? await deps.usersRepo.findAuthChannel(project.id, user.email, tx) : undefined;
      let userId: string;
      if (owner) {
        // Only the team that proved the domain may take over the project's account of the address.
        if (!domainOwned)
          throw KnownErrors.SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION({ email: owner.channel.value });
        userId = owner.user.id;
        if (await deps.repo.findUser(tx, teamId, userId))
          throw KnownErrors.SCIM_UNIQUENESS({ attribute: "emails", value: owner.channel.value });
      } else {
        userId = await deps.users.create(tx, {
          project,
          email: user.email
            ? { value: user.email, verified: domainOwned, usedForAuth: domainOwned }
            : undefined,
          displayName: user.displayName ?? null,
        });
        await deps.events.record(tx, project.id, {
          type: "user.provisioned",
          data: { user_id: userId, team_id: teamId, connection_id: null },
        });
      }
      const now = deps.now();
      const row = await uniquely(user.userName, () =>
        deps.repo.insertUser(tx, {
          teamId,
          userId,
          projectId: project.id,
          userName: user.userName,
          externalId: user.externalId,
          active: user.active,
          attributes: user.json,
          createdAt: now,
          updatedAt: now,
        }),
      );
      if (user.active) await deps.membership.activate(tx, project, teamId, userId);
      return render(tx, scope, row);
    },

    async replace(tx: Db, scope: ScimScope, id: string, body: unknown) {
      return replace(tx, scope, await find(tx, scope, id), body);
    },

    async patch(tx: Db, scope: ScimScope, id: string, body: unknown) {
      const current = await find(tx, scope, id);
      const resource = {
        ...(current.attributes as Json),
        userName: current.userName,
        active: current.active,
      };
      if (current.externalId !== null) Object.assign(resource, { externalId: current.externalId });
      return replace(tx, scope, current, applyPatch(resource, body));
    },

    async delete(tx: Db, scope: ScimScope, id: string) {
      const current = await find(tx, scope, id);
      const groups = await deps.repo.listGroups(tx, scope.teamId);
      for (const { groupId, userId } of await deps.repo.membersOf(
        tx,
        groups.map((g) => g.id),
      ))
        if (userId === current.userId) await deps.repo.removeMember(tx, groupId, userId);
      await deps.repo.deleteUser(tx, scope.teamId, current.userId);
      await deps.membership.deactivate(tx, scope.project, scope.teamId, current.userId);
    },
  };
}

export type ScimUsers = ReturnType<typeof createScimUsers>;
