// Users: creation (primary e-mail, provider accounts, personal team), anonymous upgrades and deletion, with their
// webhook events; and the user objects of the wire (server and client shapes).
import { randomUUID } from "node:crypto";
import { type ClientUser, KnownErrors, type ServerUser } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { OAuthAccountsRepo, SealedTokens } from "../db/oauth-accounts-repo.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import type { AudienceKind } from "../db/schema.ts";
import type { SessionsRepo } from "../db/sessions-repo.ts";
import type { UserRecord, UserRow, UsersRepo } from "../db/users-repo.ts";
import type { WebhookEvents } from "../webhooks/events.ts";
import type { ProjectPermissionService } from "./project-permissions.ts";
import type { Project } from "./projects.ts";
import { INTERNAL_PROJECT_ID } from "./seed.ts";
import { personalTeamName, type TeamService, toClientTeam, toServerTeam } from "./teams.ts";

/** Columns a creator may set beyond the ones NewUser names (the server's POST /users). */
export type UserColumns = Partial<
  Pick<
    UserRow,
    | "profileImageUrl"
    | "clientMetadata"
    | "clientReadOnlyMetadata"
    | "serverMetadata"
    | "sealedTotpSecret"
    | "restrictedByAdmin"
    | "restrictedByAdminReason"
    | "restrictedByAdminPrivateDetails"
    | "countryCode"
    | "riskScores"
  >
>;

export type NewUser = {
  project: Project;
  email?: { value: string; verified: boolean; usedForAuth: boolean };
  passwordHash?: string | null;
  otpAuthEnabled?: boolean;
  isAnonymous?: boolean;
  displayName?: string | null;
  columns?: UserColumns;
  /**
   * False keeps the user out of the internal project's owner team even when it is the first (the seeded operator
   * without internal access); otherwise the internal project's first real user joins it (`joinAsFirstOperator`).
   */
  mayBecomeFirstOperator?: boolean;
  /** Provider accounts to link (`oauth_providers` of POST /users; an OAuth sign-up adds the sealed tokens). */
  oauthProviders?: ({
    providerId: string;
    accountId: string;
    email: string | null;
  } & Partial<SealedTokens>)[];
};

/** Which token audience a user's tokens carry (WIRE.md §3.2). */
export function audienceOf(user: Pick<UserRecord, "isAnonymous" | "restrictedByAdmin">): AudienceKind {
  if (user.isAnonymous) return "anonymous";
  return user.restrictedByAdmin ? "restricted" : "default";
}

function restrictedReason(user: UserRecord) {
  if (user.isAnonymous) return { type: "anonymous" as const };
  return user.restrictedByAdmin ? { type: "restricted_by_administrator" as const } : null;
}

export function toServerUser(user: UserRecord): ServerUser {
  const email = user.primaryEmail;
  const hasPassword = user.passwordHash !== null;
  const reason = restrictedReason(user);
  return {
    id: user.id,
    primary_email: email?.value ?? null,
    primary_email_verified: email?.isVerified ?? false,
    primary_email_auth_enabled: email?.usedForAuth ?? false,
    display_name: user.displayName,
    selected_team: user.selectedTeam && toServerTeam(user.selectedTeam),
    selected_team_id: user.selectedTeamId,
    profile_image_url: user.profileImageUrl,
    signed_up_at_millis: user.signedUpAt.getTime(),
    has_password: hasPassword,
    otp_auth_enabled: user.otpAuthEnabled,
    passkey_auth_enabled: user.hasPasskey,
    client_metadata: user.clientMetadata ?? null,
    client_read_only_metadata: user.clientReadOnlyMetadata ?? null,
    server_metadata: user.serverMetadata ?? null,
    last_active_at_millis: user.lastActiveAt.getTime(),
    is_anonymous: user.isAnonymous,
    is_restricted: reason !== null,
    restricted_reason: reason,
    restricted_by_admin: user.restrictedByAdmin,
    restricted_by_admin_reason: user.restrictedByAdminReason,
    restricted_by_admin_private_details: user.restrictedByAdminPrivateDetails,
    country_code: user.countryCode,
    risk_scores: user.riskScores ?? { sign_up: { bot: 0, free_trial_abuse: 0 } },
    oauth_providers: user.oauthProviders,
    auth_with_email: (email?.usedForAuth ?? false) && (hasPassword || user.otpAuthEnabled),
    requires_totp_mfa: user.sealedTotpSecret !== null,
  };
}

/** The client shape: the server shape without server-only fields (the route's response schema strips them too). */
export function toClientUser(user: UserRecord): ClientUser {
  const {
    primary_email_auth_enabled: _a,
    server_metadata: _s,
    last_active_at_millis: _l,
    restricted_by_admin_private_details: _p,
    country_code: _c,
    risk_scores: _r,
    selected_team,
    ...client
  } = toServerUser(user);
  return { ...client, selected_team: selected_team && toClientTeam(selected_team) };
}

/** The contact-channel row of a new primary e-mail. */
/** The users row of a new user, as create() and createMany() insert it. */
function userRow(projectId: string, id: string, input: Omit<NewUser, "project">, now: Date) {
  return {
    ...input.columns,
    id,
    projectId,
    displayName: input.displayName || null,
    passwordHash: input.passwordHash ?? null,
    otpAuthEnabled: input.otpAuthEnabled ?? false,
    isAnonymous: input.isAnonymous ?? false,
    signedUpAt: now,
    lastActiveAt: now,
  };
}

function primaryChannel(projectId: string, userId: string, email: NonNullable<NewUser["email"]>, now: Date) {
  return {
    id: randomUUID(),
    projectId,
    userId,
    value: email.value,
    normalized: email.value.toLowerCase(),
    isVerified: email.verified,
    isPrimary: true,
    usedForAuth: email.usedForAuth,
    createdAt: now,
  };
}

export function createUserService(deps: {
  repo: UsersRepo;
  /** Takes the internal project's first operator seat (joinAsFirstOperator). */
  projects: Pick<ProjectsRepo, "takeFirstOperatorSeat">;
  oauthAccounts: OAuthAccountsRepo;
  /** Ends the user's sessions, and their OpenID Provider sessions with a back-channel notice to each app. */
  sessions: Pick<SessionsRepo, "deleteForUser">;
  teams: TeamService;
  /** Grants the project's sign-up default permissions to every new user, anonymous ones included (as Stack). */
  projectPermissions: Pick<ProjectPermissionService, "grantDefaults">;
  events: WebhookEvents;
  clock: Clock;
}) {
  /**
   * The first operator owns Gatehouse: on a fresh instance nobody can administer the internal project until
   * someone is in its owner team, so the first full user who signs up there (by any method) joins it as its
   * creator would. Anonymous and restricted users never do: admin access refuses them, so they would only hold
   * the seat. Once the team has had a member (a seeded operator included), sign-ups change nothing, even if the
   * team is emptied later.
   */
  async function joinAsFirstOperator(tx: Db, project: Project, userId: string): Promise<void> {
    if (project.id !== INTERNAL_PROJECT_ID || !project.ownerTeamId || project.firstOperatorAt) return;
    await deps.teams.addFirstMember(tx, project, project.ownerTeamId, userId);
    // Whether this user joined or found an operator there already (a seeded one), the seat is taken: an owner team
    // emptied later must not hand the instance to whoever signs up next. Every later sign-up reads that on the
    // project row and asks the team nothing.
    await deps.projects.takeFirstOperatorSeat(tx, project.id, deps.clock.now());
  }

  const service = {
    /**
     * Inserts the user with its primary e-mail and linked provider accounts in the caller's transaction, with its
     * personal team when the project creates one on sign-up, and records `user.created` last, so the event shows
     * everything. Returns the new id.
     */
    async create(tx: Db, input: NewUser): Promise<string> {
      return (await service.createRecord(tx, input)).id;
    },

    /** create(), returning the new user as the `user.created` event read it (sign-up needs no second read). */
    async createRecord(tx: Db, input: NewUser): Promise<UserRecord> {
      const id = randomUUID();
      const now = deps.clock.now();
      const { project } = input;
      const displayName = input.displayName || null;
      // The events (team.created, the membership's, user.created) go in as one insert at the end, in this order.
      return deps.events.collect(tx, async () => {
        // The personal team goes in before its user (a team names no user), so the user row is inserted with it
        // selected instead of updated afterwards; the membership follows the user.
        const personalTeam =
          project.config.create_team_on_sign_up && !input.isAnonymous
            ? await deps.teams.create(tx, project, {
                displayName: personalTeamName(displayName ?? input.email?.value ?? null),
              })
            : null;
        const row = await deps.repo.insert(tx, {
          ...userRow(project.id, id, input, now),
          ...(personalTeam ? { selectedTeamId: personalTeam.id } : {}),
        });
        if (input.email) await service.addPrimaryEmail(tx, project.id, id, input.email);
        for (const account of input.oauthProviders ?? []) {
          await deps.oauthAccounts.insert(tx, {
            id: randomUUID(),
            projectId: project.id,
            userId: id,
            ...account,
            createdAt: now,
          });
        }
        await deps.projectPermissions.grantDefaults(tx, project, id);
        if (personalTeam) await deps.teams.addMember(tx, project, personalTeam.id, id, "creator");
        if (
          !input.isAnonymous &&
          !input.columns?.restrictedByAdmin &&
          input.mayBecomeFirstOperator !== false
        ) {
          await joinAsFirstOperator(tx, project, id);
        }
        // The record as a read would find it now, built from what the inserts returned instead of read back: nothing
        // above changes the user row after its insert (the e-mail's trigger refreshes only its search text, which
        // no view of a user shows).
        const user: UserRecord = {
          ...row,
          primaryEmail: input.email
            ? {
                value: input.email.value,
                isVerified: input.email.verified,
                usedForAuth: input.email.usedForAuth,
              }
            : null,
          selectedTeam: personalTeam,
          oauthProviders: (input.oauthProviders ?? []).map((a) => ({
            id: a.providerId,
            account_id: a.accountId,
            email: a.email,
          })),
          hasPasskey: false,
        };
        await deps.events.record(tx, project.id, { type: "user.created", data: toServerUser(user) });
        return user;
      });
    },

    /**
     * create() for many users of one project (a bulk import; sign-up keeps createRecord, which saves statements
     * a single user needs, such as the read back): each table written in one statement for all of them,
     * the per-user steps (default permissions, personal team, first operator) in turn, and one `user.created`
     * each. Returns the new users in the order given.
     */
    async createMany(tx: Db, project: Project, inputs: Omit<NewUser, "project">[]): Promise<UserRecord[]> {
      const now = deps.clock.now();
      const made = inputs.map((input) => ({
        input,
        id: randomUUID(),
        displayName: input.displayName || null,
      }));
      await deps.repo.insertMany(
        tx,
        made.map(({ input, id }) => userRow(project.id, id, input, now)),
      );
      await deps.repo.insertChannel(
        tx,
        made.flatMap(({ input, id }) =>
          input.email ? [primaryChannel(project.id, id, input.email, now)] : [],
        ),
      );
      await deps.oauthAccounts.insert(
        tx,
        made.flatMap(({ input, id }) =>
          (input.oauthProviders ?? []).map((account) => ({
            id: randomUUID(),
            projectId: project.id,
            userId: id,
            ...account,
            createdAt: now,
          })),
        ),
      );
      for (const { input, id, displayName } of made) {
        await deps.projectPermissions.grantDefaults(tx, project, id);
        if (project.config.create_team_on_sign_up && !input.isAnonymous) {
          await deps.teams.createPersonalTeam(tx, project, id, displayName ?? input.email?.value ?? null);
        }
        if (
          !input.isAnonymous &&
          !input.columns?.restrictedByAdmin &&
          input.mayBecomeFirstOperator !== false
        ) {
          await joinAsFirstOperator(tx, project, id);
        }
      }
      const byId = new Map(
        (
          await deps.repo.findMany(
            project.id,
            made.map(({ id }) => id),
            tx,
          )
        ).map((user) => [user.id, user]),
      );
      const created = made.map(({ id }) => {
        const user = byId.get(id);
        if (!user) throw KnownErrors.USER_NOT_FOUND();
        return user;
      });
      await deps.events.record(
        tx,
        project.id,
        ...created.map((user) => ({ type: "user.created" as const, data: toServerUser(user) })),
      );
      return created;
    },

    /**
     * An anonymous user becomes a full user (sign-up while signed in anonymously): same id, so its data stays.
     * Gets the personal team it skipped at creation, and records `user.updated`.
     */
    async upgradeAnonymous(
      tx: Db,
      project: Project,
      userId: string,
      input: { email: NonNullable<NewUser["email"]>; passwordHash?: string; otpAuthEnabled?: boolean },
    ): Promise<void> {
      const changes = {
        ...(input.passwordHash === undefined ? {} : { passwordHash: input.passwordHash }),
        ...(input.otpAuthEnabled === undefined ? {} : { otpAuthEnabled: input.otpAuthEnabled }),
      };
      if (Object.keys(changes).length > 0) await deps.repo.update(tx, userId, changes);
      await service.addPrimaryEmail(tx, project.id, userId, input.email);
      await service.endAnonymity(tx, project, userId);
      await service.recordEvent(tx, project.id, userId, "user.updated");
    },

    /**
     * The step every upgrade shares (sign-up paths, and the server's `is_anonymous: false`): the user stops being
     * anonymous and gets its personal team, named after its display name or primary e-mail as they are now. The
     * caller records `user.updated` once all its changes are in.
     */
    async endAnonymity(tx: Db, project: Project, userId: string): Promise<void> {
      await deps.repo.update(tx, userId, { isAnonymous: false });
      const user = await deps.repo.find(project.id, userId, tx);
      if (!user) throw KnownErrors.USER_NOT_FOUND();
      if (project.config.create_team_on_sign_up) {
        const name = user.displayName ?? user.primaryEmail?.value ?? null;
        await deps.teams.createPersonalTeam(tx, project, userId, name);
      }
      if (!user.restrictedByAdmin) await joinAsFirstOperator(tx, project, userId);
    },

    /** Records `user.created` or `user.updated` with the user as it now is in the transaction, and returns it. */
    async recordEvent(
      tx: Db,
      projectId: string,
      userId: string,
      type: "user.created" | "user.updated",
    ): Promise<UserRecord> {
      const user = await deps.repo.find(projectId, userId, tx);
      if (!user) throw KnownErrors.USER_NOT_FOUND();
      await deps.events.record(tx, projectId, { type, data: toServerUser(user) });
      return user;
    },

    async addPrimaryEmail(tx: Db, projectId: string, userId: string, email: NonNullable<NewUser["email"]>) {
      await deps.repo.insertChannel(tx, primaryChannel(projectId, userId, email, deps.clock.now()));
    },

    /**
     * Deletes the user in one transaction: memberships end (one `team_membership.deleted` each), then the user
     * with its sessions, grants, contact channels and auth methods (cascades), then `user.deleted`. The sessions
     * are ended first, as a sign-out would: the apps the user signed in to through the OpenID Provider get their
     * back-channel logout notices queued in this transaction (a cascade alone would end them silently).
     */
    delete(db: Db, user: UserRecord): Promise<void> {
      return inTransaction(db, async (tx) => {
        const teamIds = await deps.teams.leaveAll(tx, user.projectId, user.id);
        await deps.sessions.deleteForUser(tx, user.id);
        // Two deletions racing: the second finds nothing to delete and records no second event.
        if (!(await deps.repo.delete(tx, user.id))) throw KnownErrors.USER_NOT_FOUND();
        await deps.events.record(tx, user.projectId, {
          type: "user.deleted",
          data: { id: user.id, teams: teamIds.map((id) => ({ id })) },
        });
      });
    },
  };
  return service;
}

export type UserService = ReturnType<typeof createUserService>;
