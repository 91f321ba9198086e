// SCIM 2.0 provisioning per team: bearer tokens (shown once, stored as SHA-256 hashes) and the Users and Groups a
// token reaches, always those of the token's own team. Built once from ../index.ts.

import { randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../../clock.ts";
import { sha256Hex } from "../../crypto/hash.ts";
import { randomCrockford } from "../../crypto/random.ts";
import type { Db } from "../../db/client.ts";
import type { ProjectsRepo } from "../../db/projects-repo.ts";
import type { SessionsRepo } from "../../db/sessions-repo.ts";
import type { TeamsRepo } from "../../db/teams-repo.ts";
import type { UsersRepo } from "../../db/users-repo.ts";
import type { TeamService } from "../../services/teams.ts";
import type { UserService } from "../../services/users.ts";
import type { WebhookEvents } from "../../webhooks/events.ts";
import type { SsoRepo } from "../repo.ts";
import { createScimGroups } from "./groups.ts";
import { createScimMembership } from "./membership.ts";
import { createScimRepo, type ScimTokenRow } from "./repo.ts";
import { createScimUsers, type ScimScope } from "./users.ts";

export type ScimDeps = {
  clock: Clock;
  baseUrl: string;
  ssoRepo: SsoRepo;
  projectsRepo: ProjectsRepo;
  teamsRepo: TeamsRepo;
  usersRepo: UsersRepo;
  sessionsRepo: SessionsRepo;
  users: UserService;
  teams: TeamService;
  events: WebhookEvents;
};

/** A recognisable prefix lets secret scanners find leaked tokens; 48 Crockford characters carry 240 bits. */
const TOKEN_PREFIX = "gh_scim_";
/** last_used_at is written at most this often, so a busy provisioning run is not a write per request. */
const TOUCH_EVERY_MS = 60_000;

const toWire = (row: ScimTokenRow) => ({
  id: row.id,
  team_id: row.teamId,
  description: row.description,
  created_at_millis: row.createdAt.getTime(),
  last_used_at_millis: row.lastUsedAt?.getTime() ?? null,
});

export function createScim(deps: ScimDeps) {
  const repo = createScimRepo();
  const now = () => deps.clock.now();
  const membership = createScimMembership({
    repo,
    ssoRepo: deps.ssoRepo,
    teams: deps.teams,
    teamsRepo: deps.teamsRepo,
    sessionsRepo: deps.sessionsRepo,
  });
  const baseUrl = `${deps.baseUrl.replace(/\/$/, "")}/api/v1/scim/v2`;

  async function requireTeam(db: Db, projectId: string, teamId: string) {
    if (!(await deps.teamsRepo.findTeam(projectId, teamId, db)))
      throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
  }

  return {
    repo,
    baseUrl,
    users: createScimUsers({
      repo,
      ssoRepo: deps.ssoRepo,
      usersRepo: deps.usersRepo,
      users: deps.users,
      events: deps.events,
      membership,
      now,
    }),
    groups: createScimGroups({ repo, membership, now }),

    tokens: {
      async list(db: Db, projectId: string, teamId: string) {
        await requireTeam(db, projectId, teamId);
        return (await repo.listTokens(db, projectId, teamId)).map(toWire);
      },

      /** The token itself is in this answer only: the database keeps its hash. */
      async create(db: Db, projectId: string, teamId: string, description: string) {
        await requireTeam(db, projectId, teamId);
        const token = `${TOKEN_PREFIX}${randomCrockford(48)}`;
        const row = await repo.insertToken(db, {
          id: randomUUID(),
          projectId,
          teamId,
          description,
          tokenHash: sha256Hex(token),
          createdAt: now(),
        });
        return { ...toWire(row), token, scim_base_url: baseUrl };
      },

      async revoke(db: Db, projectId: string, teamId: string, tokenId: string) {
        if (!(await repo.deleteToken(db, projectId, teamId, tokenId)))
          throw KnownErrors.SCIM_TOKEN_NOT_FOUND({ token_id: tokenId });
      },
    },

    /**
     * The team a bearer token speaks for. Lookup by hash: the plaintext never reaches the database, and an equality
     * match on a hash leaks nothing useful through timing.
     */
    async authenticate(db: Db, authorization: string | undefined): Promise<ScimScope> {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
      const token = match?.[1];
      if (!token?.startsWith(TOKEN_PREFIX) || token.length > 128) throw KnownErrors.SCIM_TOKEN_INVALID();
      const row = await repo.findTokenByHash(db, sha256Hex(token));
      const project = row ? await deps.projectsRepo.find(row.projectId, db) : undefined;
      if (!row || !project) throw KnownErrors.SCIM_TOKEN_INVALID();
      const at = now();
      if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS)
        await repo.touchToken(db, row.id, at);
      return { project, teamId: row.teamId, baseUrl };
    },

    /** Whether the team's identity provider deactivated the user (SSO sign-in into the team is refused then). */
    async isDeactivated(db: Db, teamId: string, userId: string): Promise<boolean> {
      const row = await repo.findUser(db, teamId, userId);
      return row !== undefined && !row.active;
    },
  };
}

export type Scim = ReturnType<typeof createScim>;
