// SCIM Groups of one team: a group's members are the team's SCIM users, and its display name maps to team permissions
// (membership.ts). Every change of membership or name re-grants the permissions of the members it touches.

import { randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import type { Db } from "../../db/client.ts";
import { attribute, matches, parseFilter } from "./filter.ts";
import type { ScimMembership } from "./membership.ts";
import { applyPatch } from "./patch.ts";
import type { ScimGroupRow, ScimRepo } from "./repo.ts";
import { groupResource, listResponse, stringAttribute } from "./resources.ts";
import type { ScimScope } from "./users.ts";

type Json = Record<string, unknown>;
const MAX_MEMBERS = 10_000;
const invalid = (reason: string) => KnownErrors.SCIM_INVALID_VALUE({ reason });

export type ScimGroupsDeps = { repo: ScimRepo; membership: ScimMembership; now: () => Date };

function readGroup(body: unknown) {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalid("the body must be a Group.");
  const json = body as Json;
  const displayName = stringAttribute(json, "displayName")?.trim();
  if (!displayName || displayName.length > 256)
    throw invalid("displayName must be a string of 1 to 256 characters.");
  const externalId = attribute(json, "externalId");
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string")
    throw invalid("externalId must be a string.");
  const members = attribute(json, "members") ?? [];
  if (!Array.isArray(members) || members.length > MAX_MEMBERS) throw invalid("members must be a list.");
  const memberIds = members.map((member) => {
    const value = typeof member === "object" && member !== null ? attribute(member, "value") : undefined;
    if (typeof value !== "string") throw invalid("each member needs a `value` (the User's id).");
    return value;
  });
  return {
    displayName,
    externalId: (externalId as string | null | undefined) ?? null,
    memberIds: [...new Set(memberIds)],
  };
}

export function createScimGroups(deps: ScimGroupsDeps) {
  async function find(tx: Db, scope: ScimScope, id: string): Promise<ScimGroupRow> {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await deps.repo.findGroup(tx, scope.teamId, id) : undefined;
    if (!row) throw KnownErrors.SCIM_RESOURCE_NOT_FOUND({ resource: "Group", id: id.slice(0, 64) });
    return row;
  }

  async function render(tx: Db, scope: ScimScope, rows: ScimGroupRow[]) {
    const users = new Map((await deps.repo.listUsers(tx, scope.teamId)).map((u) => [u.userId, u.userName]));
    const members = await deps.repo.membersOf(
      tx,
      rows.map((r) => r.id),
    );
    return rows.map((row) =>
      groupResource(
        scope.baseUrl,
        row,
        members
          .filter((m) => m.groupId === row.id)
          .map((m) => ({ id: m.userId, userName: users.get(m.userId) ?? "" })),
      ),
    );
  }

  async function assertFreeName(tx: Db, scope: ScimScope, displayName: string, self?: string) {
    const taken = (await deps.repo.listGroups(tx, scope.teamId)).find(
      (g) => g.displayName.toLowerCase() === displayName.toLowerCase(),
    );
    if (taken && taken.id !== self)
      throw KnownErrors.SCIM_UNIQUENESS({ attribute: "displayName", value: displayName });
  }

  /** Sets the group's name and members, then re-grants every user whose groups changed (left, joined or renamed). */
  async function store(tx: Db, scope: ScimScope, groupId: string, body: unknown, isNew: boolean) {
    const group = readGroup(body);
    await assertFreeName(tx, scope, group.displayName, groupId);
    const known = new Set((await deps.repo.listUsers(tx, scope.teamId)).map((u) => u.userId));
    const stranger = group.memberIds.find((id) => !known.has(id));
    if (stranger) throw invalid(`member ${stranger.slice(0, 64)} is not a User of this team.`);
    const before = isNew ? [] : (await deps.repo.membersOf(tx, [groupId])).map((m) => m.userId);
    const affected = new Set([...before, ...group.memberIds]);
    const groupsBefore = new Map<string, string[]>();
    for (const userId of affected)
      groupsBefore.set(userId, await deps.repo.groupNamesOf(tx, scope.teamId, userId));
    const now = deps.now();
    if (isNew) {
      await deps.repo.insertGroup(tx, {
        id: groupId,
        projectId: scope.project.id,
        teamId: scope.teamId,
        displayName: group.displayName,
        externalId: group.externalId,
        createdAt: now,
        updatedAt: now,
      });
    } else {
      await deps.repo.updateGroup(tx, groupId, {
        displayName: group.displayName,
        externalId: group.externalId,
        updatedAt: now,
      });
    }
    await deps.repo.setMembers(tx, groupId, group.memberIds);
    for (const [userId, names] of groupsBefore)
      await deps.membership.regrant(tx, scope.project, scope.teamId, userId, names);
    const [rendered] = await render(tx, scope, [await find(tx, scope, groupId)]);
    return rendered as Json;
  }

  return {
    async list(tx: Db, scope: ScimScope, query: Record<string, string | undefined>) {
      const filter = query.filter ? parseFilter(query.filter) : undefined;
      const resources = await render(tx, scope, await deps.repo.listGroups(tx, scope.teamId));
      return listResponse(
        resources.filter((resource) => !filter || matches(resource, filter)),
        query,
      );
    },

    async get(tx: Db, scope: ScimScope, id: string) {
      const [rendered] = await render(tx, scope, [await find(tx, scope, id)]);
      return rendered as Json;
    },

    create: (tx: Db, scope: ScimScope, body: unknown) => store(tx, scope, randomUUID(), body, true),

    async replace(tx: Db, scope: ScimScope, id: string, body: unknown) {
      return store(tx, scope, (await find(tx, scope, id)).id, body, false);
    },

    async patch(tx: Db, scope: ScimScope, id: string, body: unknown) {
      const current = await find(tx, scope, id);
      const members = await deps.repo.membersOf(tx, [current.id]);
      const resource: Json = {
        displayName: current.displayName,
        members: members.map((m) => ({ value: m.userId })),
        ...(current.externalId !== null ? { externalId: current.externalId } : {}),
      };
      return store(tx, scope, current.id, applyPatch(resource, body), false);
    },

    async delete(tx: Db, scope: ScimScope, id: string) {
      const current = await find(tx, scope, id);
      const members = await deps.repo.membersOf(tx, [current.id]);
      const groupsBefore = new Map<string, string[]>();
      for (const { userId } of members)
        groupsBefore.set(userId, await deps.repo.groupNamesOf(tx, scope.teamId, userId));
      await deps.repo.deleteGroup(tx, current.id);
      for (const [userId, names] of groupsBefore)
        await deps.membership.regrant(tx, scope.project, scope.teamId, userId, names);
    },
  };
}

export type ScimGroups = ReturnType<typeof createScimGroups>;
