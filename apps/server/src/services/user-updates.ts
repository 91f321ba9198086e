// Users created and changed through the API (WIRE.md §4.8): POST /users, and ONE update for PATCH /users/me and
// PATCH /users/{user_id} (the route's schema decides which fields a caller may send). Wire fields become rows here:
// passwords hashed, imported hashes checked, TOTP secrets sealed, the primary e-mail rules applied.
import { randomUUID } from "node:crypto";
import { KnownErrors, type ServerUserCreate, type ServerUserUpdate } from "@gatehouse/contract";
import type { AuditLog, AuditRecord } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { parsePasswordHash } from "../crypto/imported-hash.ts";
import type { PasswordHasher } from "../crypto/password.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { OAuthAccountsRepo } from "../db/oauth-accounts-repo.ts";
import { createPasskeysRepo } from "../db/passkeys-repo.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { UserRecord, UserRow, UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import { assertPasswordLength } from "./password-auth.ts";
import type { Project } from "./projects.ts";
import type { SessionService } from "./sessions.ts";
import type { NewUser, UserColumns, UserService } from "./users.ts";

/** Every field a caller may send; client callers' bodies are the subset their schema allows. */
export type UserUpdate = ServerUserUpdate;
export type UserCreate = ServerUserCreate;

const MAX_IMAGE_DATA_URL = 512 * 1024;
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/;

/** null, an absolute http(s) URL, or a small inline image (WIRE.md §1.6); anything else is a plain 400. */
export function assertProfileImageUrl(value: string | null): void {
  if (value === null) return;
  if (value.startsWith("data:")) {
    if (value.length <= MAX_IMAGE_DATA_URL && DATA_IMAGE.test(value)) return;
  } else if (value.length <= 2048 && URL.canParse(value)) {
    const protocol = new URL(value).protocol;
    if (protocol === "http:" || protocol === "https:") return;
  }
  throw new TextError(400, "Invalid profile image URL");
}

/** The hash to store: undefined leaves the password alone, null removes it. Imports are stored as given. */
async function passwordHashOf(
  hasher: PasswordHasher,
  input: { password?: string | null; password_hash?: string },
): Promise<string | null | undefined> {
  if (input.password !== undefined && input.password_hash !== undefined) {
    throw new TextError(400, "Cannot set both password and password_hash.");
  }
  if (input.password_hash !== undefined) {
    if (!parsePasswordHash(input.password_hash)) throw new TextError(400, "Invalid password hash.");
    return input.password_hash;
  }
  if (typeof input.password !== "string") return input.password;
  assertPasswordLength(input.password);
  return hasher.hash(input.password);
}

/** A reason or details only while restricted; lifting the restriction clears both. `""` is stored as null. */
function restrictionChanges(input: UserCreate | UserUpdate, restrictedNow: boolean): UserColumns {
  const reason =
    input.restricted_by_admin_reason === undefined ? undefined : input.restricted_by_admin_reason || null;
  const details =
    input.restricted_by_admin_private_details === undefined
      ? undefined
      : input.restricted_by_admin_private_details || null;
  if (input.restricted_by_admin ?? restrictedNow) {
    return definedOnly({
      restrictedByAdmin: input.restricted_by_admin,
      restrictedByAdminReason: reason,
      restrictedByAdminPrivateDetails: details,
    });
  }
  if (reason) throw new TextError(400, "restricted_by_admin_reason requires restricted_by_admin=true");
  if (details)
    throw new TextError(400, "restricted_by_admin_private_details requires restricted_by_admin=true");
  if (input.restricted_by_admin === undefined) return {};
  return { restrictedByAdmin: false, restrictedByAdminReason: null, restrictedByAdminPrivateDetails: null };
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The flags describe an address: without one they can only be false. */
function assertFlagsHaveAddress(input: {
  primary_email_verified?: boolean;
  primary_email_auth_enabled?: boolean;
}) {
  if (input.primary_email_verified) {
    throw new TextError(400, "primary_email_verified cannot be true without primary_email");
  }
  if (input.primary_email_auth_enabled) {
    throw new TextError(400, "primary_email_auth_enabled cannot be true without primary_email");
  }
}

const emailTaken = (email: string) =>
  KnownErrors.USER_EMAIL_ALREADY_EXISTS({ email, would_work_if_email_was_verified: false });

/**
 * A unique index refused a write: two requests raced for one sign-in address or provider account, and the other
 * committed first. Running the check again now names the conflict with its known error; any other failure stays.
 */
async function conflictError(error: unknown, recheck: () => Promise<void>): Promise<unknown> {
  if (isUniqueViolation(error)) await recheck();
  return error;
}

/** The audit entries a user update makes: e-mail, password, second factor and ban changes (issue 21). */
function auditRecords(user: UserRecord, input: UserUpdate, passwordChanged: boolean): AuditRecord[] {
  const target = { type: "user", id: user.id };
  const records: AuditRecord[] = [];
  const before = user.primaryEmail?.value ?? null;
  // The addresses themselves: "changed to what" is the question a reviewer of an account takeover asks next.
  if (input.primary_email !== undefined && input.primary_email?.toLowerCase() !== before?.toLowerCase())
    records.push({
      type: "user.email_changed",
      target,
      details: { from: before, to: input.primary_email, via: "user_update" },
    });
  if (passwordChanged) records.push({ type: "password.changed", target, details: { via: "user_update" } });
  if (input.totp_secret_base64 !== undefined)
    records.push({
      type: "mfa.changed",
      target,
      details: { totp: input.totp_secret_base64 === null ? "removed" : "set" },
    });
  if (input.restricted_by_admin === true && !user.restrictedByAdmin)
    records.push({
      type: "user.banned",
      target,
      details: { reason: input.restricted_by_admin_reason ?? null },
    });
  if (input.restricted_by_admin === false && user.restrictedByAdmin)
    records.push({ type: "user.unbanned", target });
  return records;
}

export function createUserUpdates(deps: {
  db: Db;
  repo: UsersRepo;
  oauthAccounts: OAuthAccountsRepo;
  users: UserService;
  teamsRepo: TeamsRepo;
  clock: Clock;
  totpBox: SecretBox;
  hasher: PasswordHasher;
  sessions: Pick<SessionService, "endAllForUser">;
  audit: AuditLog;
}) {
  const { hasher } = deps;
  const auditUpdate = (tx: Db, user: UserRecord, input: UserUpdate, passwordChanged: boolean) =>
    deps.audit.record(tx, user.projectId, ...auditRecords(user, input, passwordChanged));

  /** Columns both create and update take from the same wire fields. */
  function columnChanges(input: UserCreate | UserUpdate, restrictedNow: boolean) {
    if (input.profile_image_url !== undefined) assertProfileImageUrl(input.profile_image_url);
    const totp = input.totp_secret_base64;
    return {
      ...definedOnly({
        displayName: input.display_name,
        profileImageUrl: input.profile_image_url,
        clientMetadata: input.client_metadata,
        clientReadOnlyMetadata: input.client_read_only_metadata,
        serverMetadata: input.server_metadata,
        otpAuthEnabled: input.otp_auth_enabled,
        sealedTotpSecret: totp == null ? totp : deps.totpBox.seal(totp),
        countryCode: input.country_code,
        riskScores: input.risk_scores,
      }),
      ...restrictionChanges(input, restrictedNow),
    } satisfies Partial<UserRow>;
  }

  /** An address another user of the project signs in with cannot become this user's sign-in address. */
  async function assertAddressFree(executor: Db, projectId: string, userId: string | null, email: string) {
    const found = await deps.repo.findAuthChannel(projectId, email, executor);
    if (found && found.channel.userId !== userId) throw emailTaken(email);
  }

  /**
   * The primary e-mail rules of WIRE.md §4.8 with the server's flags. A new address demotes the old primary (kept)
   * and becomes primary: the user's channel for it is promoted, or one is created, unverified unless
   * `primary_email_verified` says otherwise; it keeps the old primary's sign-in flag unless
   * `primary_email_auth_enabled` says otherwise. `null` demotes without deleting. Without a new address, the flags
   * apply to the current primary.
   */
  async function applyPrimaryEmail(tx: Db, projectId: string, userId: string, input: UserUpdate) {
    const {
      primary_email: email,
      primary_email_verified: verified,
      primary_email_auth_enabled: forAuth,
    } = input;
    if (email === undefined && verified === undefined && forAuth === undefined) return;
    const old = await deps.repo.findPrimaryChannel(tx, userId);
    const value = email === undefined ? old?.value : email;
    if (value === null || value === undefined) {
      assertFlagsHaveAddress(input);
      if (old) await deps.repo.updateChannel(tx, old.id, { isPrimary: false });
      return;
    }
    const target =
      old?.normalized === value.toLowerCase() ? old : await deps.repo.findChannel(tx, userId, value);
    const usedForAuth = forAuth ?? old?.usedForAuth ?? false;
    const isVerified = verified ?? target?.isVerified ?? false;
    if (usedForAuth) await assertAddressFree(tx, projectId, userId, value);
    // Demoted first: a user has at most one primary e-mail (unique index).
    if (old && old.id !== target?.id) await deps.repo.updateChannel(tx, old.id, { isPrimary: false });
    if (target) {
      await deps.repo.updateChannel(tx, target.id, { isPrimary: true, usedForAuth, isVerified });
      return;
    }
    await deps.repo.insertChannel(tx, {
      id: randomUUID(),
      projectId,
      userId,
      value,
      normalized: value.toLowerCase(),
      isVerified,
      isPrimary: true,
      usedForAuth,
      createdAt: deps.clock.now(),
    });
  }

  async function reload(tx: Db, projectId: string, userId: string): Promise<UserRecord> {
    const user = await deps.repo.find(projectId, userId, tx);
    if (!user) throw KnownErrors.USER_NOT_FOUND();
    return user;
  }

  return {
    /** POST /users: one transaction, so the `user.created` event and the personal team see every field. */
    async create(project: Project, input: UserCreate): Promise<UserRecord> {
      const { displayName, otpAuthEnabled, ...columns } = columnChanges(input, false);
      const passwordHash = await passwordHashOf(hasher, input);
      const address = input.primary_email;
      if (!address) assertFlagsHaveAddress(input);
      const email = address
        ? {
            value: address,
            verified: input.primary_email_verified ?? false,
            usedForAuth: input.primary_email_auth_enabled ?? false,
          }
        : undefined;
      const oauthProviders = (input.oauth_providers ?? []).map((p) => ({
        providerId: p.id,
        accountId: p.account_id,
        email: p.email ?? null,
      }));
      const keys = oauthProviders.map((p) => JSON.stringify([p.providerId, p.accountId]));
      if (new Set(keys).size < keys.length)
        throw KnownErrors.OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN();
      const assertClaimsFree = async (executor: Db) => {
        if (email?.usedForAuth) await assertAddressFree(executor, project.id, null, email.value);
        for (const p of oauthProviders) {
          if (await deps.oauthAccounts.find(executor, project.id, p.providerId, p.accountId)) {
            throw KnownErrors.OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN();
          }
        }
      };
      const newUser: NewUser = {
        project,
        ...definedOnly({ email, passwordHash, otpAuthEnabled, displayName, isAnonymous: input.is_anonymous }),
        columns,
        oauthProviders,
      };
      try {
        return await inTransaction(deps.db, async (tx) => {
          await assertClaimsFree(tx);
          return reload(tx, project.id, await deps.users.create(tx, newUser));
        });
      } catch (error) {
        throw await conflictError(error, () => assertClaimsFree(deps.db));
      }
    },

    /** Applies the fields present, in one transaction that records `user.updated`; returns the user as stored. */
    async update(project: Project, user: UserRecord, input: UserUpdate): Promise<UserRecord> {
      const changes: Partial<UserRow> = columnChanges(input, user.restrictedByAdmin);
      const passwordHash = await passwordHashOf(hasher, input);
      if (passwordHash !== undefined) changes.passwordHash = passwordHash;
      const teamId = input.selected_team_id;
      if (teamId !== undefined) changes.selectedTeamId = teamId;
      try {
        return await inTransaction(deps.db, async (tx) => {
          // Held until commit: updates of one user take turns, and a deletion meanwhile is a clean USER_NOT_FOUND.
          if (!(await deps.repo.lockUser(tx, user.projectId, user.id))) throw KnownErrors.USER_NOT_FOUND();
          // Checked inside the transaction: a membership that ends meanwhile cannot stay selected.
          if (teamId && !(await deps.teamsRepo.findMember(teamId, user.id, tx))) {
            throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: teamId, user_id: user.id });
          }
          if (Object.keys(changes).length > 0) await deps.repo.update(tx, user.id, changes);
          await applyPrimaryEmail(tx, project.id, user.id, input);
          // `is_anonymous: false` upgrades like a sign-up would, after the other fields (the team is named from them).
          if (input.is_anonymous === false && user.isAnonymous)
            await deps.users.endAnonymity(tx, project, user.id);
          if (input.passkey_auth_enabled === false) await createPasskeysRepo().removeForUser(tx, user.id);
          // A ban signs the user out everywhere, with the change: no session of a banned user outlives the commit
          // (sign-ins racing with it are refused by sessions.open, which waits for this row's lock).
          if (input.restricted_by_admin === true) await deps.sessions.endAllForUser(tx, user.id);
          await auditUpdate(tx, user, input, passwordHash !== undefined);
          // The event's reading of the user is the answer too.
          return deps.users.recordEvent(tx, project.id, user.id, "user.updated");
        });
      } catch (error) {
        const address = input.primary_email === undefined ? user.primaryEmail?.value : input.primary_email;
        throw await conflictError(error, async () => {
          if (address) await assertAddressFree(deps.db, project.id, user.id, address);
        });
      }
    },
  };
}

export type UserUpdates = ReturnType<typeof createUserUpdates>;
