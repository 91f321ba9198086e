// Sessions and tokens (WIRE.md §3): a session holds the hash of its opaque refresh token; access tokens are ES256
// JWTs minted from a session with exactly the claims of §3.1.
import { createHmac, randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import type { AuditLog, AuditRecord } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { crockfordOf, randomCrockford } from "../crypto/random.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { ImpersonatorKind } from "../db/schema.ts";
import type { Alongside, SessionsRepo } from "../db/sessions-repo.ts";
import type { KnownDevice, TokenSubject, UserRecord, UsersRepo } from "../db/users-repo.ts";
import type { NewDeviceNotice } from "../trust/new-device.ts";
import type { ActivityRecorder } from "./activity.ts";
import { amrOf } from "./amr.ts";
import type { Project } from "./projects.ts";
import type { SigningKeyService } from "./signing-keys.ts";
import { audienceOf } from "./users.ts";

/** Sign-in sessions last a year (WIRE.md §3.3). */
export const SIGN_IN_SESSION_MS = 365 * 24 * 3600 * 1000;

const AUDIENCE_PATHS = {
  default: { path: "projects", suffix: "" },
  restricted: { path: "projects-restricted-users", suffix: ":restricted" },
  anonymous: { path: "projects-anonymous-users", suffix: ":anon" },
} as const;

/** `iss` and `aud` of a token for this project and audience kind (WIRE.md §3.2). */
export function tokenIssuerAndAudience(
  baseUrl: string,
  projectId: string,
  audience: keyof typeof AUDIENCE_PATHS,
) {
  const { path, suffix } = AUDIENCE_PATHS[audience];
  return { iss: `${baseUrl}/api/v1/${path}/${projectId}`, aud: `${projectId}${suffix}` };
}

/**
 * The refusal of every sign-in of a user restricted by an administrator (banned). The catalogue's error for a
 * restricted user, with the reason that says an administrator did it: Stack Auth would sign such a user in with a
 * restricted token that its API then refuses with this same error, so an app sees the same code and reason either way;
 * Gatehouse refuses before any token exists, so a ban also holds against third-party backends that only check the JWKS.
 */
export const bannedError = () =>
  KnownErrors.RESTRICTED_USER_NOT_ALLOWED({ restricted_reason: { type: "restricted_by_administrator" } });

/** Who started an impersonation session: the credential, and the operator's user id when one did (schema.ts). */
export type Impersonator = { kind: ImpersonatorKind; userId: string | null };

/** How a sign-in proved the user (password, otp, passkey, oauth, sso, cli, anonymous), for the audit log. */
export type SignInMethod = {
  method: string;
  isNewUser: boolean;
  /** The request's caller acted (a server opening a user's session), rather than the user proving themselves. */
  byCaller?: boolean;
  /** Whether the user has devices, and this one among them, when the sign-in read it already (trust/new-device.ts). */
  knownDevice?: KnownDevice;
};

/** Who a session that ends belonged to, and why it ended, for the audit log. */
export type SessionEnd = { projectId: string; userId: string; type: "sign_out" | "session.revoked" };

/** How long a replaced refresh token still works (a client that lost the answer retries with it). */
export const ROTATION_GRACE_MS = 30_000;

type RefreshableSession = { id: string; user: TokenSubject; expiresAt: Date };
export type Refreshed = { accessToken: string; refreshToken: string; rotated: boolean };

export type IssuedSession = {
  user: UserRecord;
  sessionId: string;
  refreshToken: string;
  accessToken: string;
};

/** The sign-in response of the wire (WIRE.md §4.0); `is_new_user` where the route answers it. */
type SignInTokens = { access_token: string; refresh_token: string; user_id: string };
export function signInResponse(issued: IssuedSession): SignInTokens;
export function signInResponse(
  issued: IssuedSession,
  isNewUser: boolean,
): SignInTokens & { is_new_user: boolean };
export function signInResponse(issued: IssuedSession, isNewUser?: boolean) {
  const tokens = {
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    user_id: issued.user.id,
  };
  return isNewUser === undefined ? tokens : { ...tokens, is_new_user: isNewUser };
}

export function createSessionService(deps: {
  db: Db;
  repo: SessionsRepo;
  users: UsersRepo;
  signingKeys: SigningKeyService;
  clock: Clock;
  baseUrl: string;
  accessTokenLifetimeMs: number;
  activity: ActivityRecorder;
  audit: AuditLog;
  /** Key of the HMAC that derives rotated refresh tokens, from the server secret. */
  rotationKey: Buffer;
  /** [GO] The project's custom claims for this user (trust/token-claims.ts); none when absent. */
  /** The project, when the caller has it, saves reading it again (a refresh mints a token per request). */
  customClaims?: (user: TokenSubject, project?: Project) => Promise<Record<string, unknown>>;
  /** [GO] Records the device of a sign-in and e-mails the user when it is new to them (trust/new-device.ts). */
  newDevice?: NewDeviceNotice;
}) {
  const { clock } = deps;

  /** The token that replaces `presented`: derived, so a retry within the grace window gets the same one again. */
  const successorOf = (presented: string) =>
    crockfordOf(createHmac("sha256", deps.rotationKey).update(presented).digest(), 45);

  /** A token that is not a session's current one: the previous one within its grace window, or a replay. */
  async function replayed(projectId: string, presented: string, now: Date): Promise<Refreshed> {
    const retired = await deps.repo.findRetired(sha256Hex(presented));
    if (!retired) throw KnownErrors.REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED();
    const successor = successorOf(presented);
    const current = await deps.users.findBySession(projectId, retired.sessionId);
    const graceful =
      current !== undefined &&
      !current.user.restrictedByAdmin &&
      current.refreshTokenHash === sha256Hex(successor) &&
      now.getTime() - retired.retiredAt.getTime() < ROTATION_GRACE_MS &&
      current.sessionExpiresAt > now;
    if (!graceful) {
      // Reuse of a replaced token means two parties hold this session: end it for both.
      await inTransaction(deps.db, (tx) => deps.repo.delete(tx, retired.sessionId));
      throw KnownErrors.REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED();
    }
    return {
      accessToken: await mintAccessToken(current.user, retired.sessionId),
      refreshToken: successor,
      rotated: true,
    };
  }

  async function mintAccessToken(
    user: TokenSubject,
    sessionId: string,
    lifetimeMs = deps.accessTokenLifetimeMs,
    project?: Project,
  ) {
    const now = Math.floor(clock.now().getTime() / 1000);
    const audience = audienceOf(user);
    const restricted = audience !== "default";
    const custom = deps.customClaims ? await deps.customClaims(user, project) : {};
    return deps.signingKeys.sign(user.projectId, audience, {
      // First, so no custom claim can replace a standard one (templates are also refused names of standard claims).
      ...custom,
      ...tokenIssuerAndAudience(deps.baseUrl, user.projectId, audience),
      iat: now,
      exp: now + Math.floor(lifetimeMs / 1000),
      sub: user.id,
      project_id: user.projectId,
      branch_id: "main",
      refresh_token_id: sessionId,
      role: "authenticated",
      name: user.displayName,
      email: user.primaryEmail?.value ?? null,
      email_verified: user.primaryEmail?.isVerified ?? false,
      selected_team_id: user.selectedTeamId,
      signed_up_at: Math.floor(user.signedUpAt.getTime() / 1000),
      is_anonymous: user.isAnonymous,
      is_restricted: restricted,
      restricted_reason: restricted
        ? { type: user.isAnonymous ? "anonymous" : "restricted_by_administrator" }
        : null,
      requires_totp_mfa: user.sealedTotpSecret !== null,
    });
  }

  /** The audit entry of a new session: a sign-up, a sign-in, or an impersonation (who, as whom). */
  function openedRecord(
    user: UserRecord,
    sessionId: string,
    options: { impersonator?: Impersonator; signIn?: SignInMethod },
  ): AuditRecord | undefined {
    const target = { type: "user", id: user.id };
    if (options.impersonator) {
      return {
        type: "impersonation.started",
        target,
        details: {
          session_id: sessionId,
          impersonator_kind: options.impersonator.kind,
          impersonator_user_id: options.impersonator.userId ?? null,
        },
      };
    }
    if (!options.signIn) return undefined;
    const { method, isNewUser, byCaller } = options.signIn;
    return {
      type: isNewUser ? "sign_up" : "sign_in.succeeded",
      target,
      // The session belongs to the user who just proved who they are, whoever the request's caller was.
      ...(byCaller ? {} : { actor: { type: "user" as const, id: user.id } }),
      details: { method, session_id: sessionId },
    };
  }

  return {
    mintAccessToken,

    /**
     * Starts a session in the caller's transaction. The access token is minted by `issue` after the commit: minting
     * reads the signing keys, which must not wait on an open transaction (PGlite has one connection).
     */
    async open(
      tx: Db,
      user: UserRecord,
      options: { expiresInMs?: number; impersonator?: Impersonator; signIn?: SignInMethod } = {},
    ): Promise<{ user: UserRecord; sessionId: string; refreshToken: string }> {
      const sessionId = randomUUID();
      const refreshToken = randomCrockford(45);
      const now = clock.now();
      const { impersonator } = options;
      const record = openedRecord(user, sessionId, options);
      // Only the user's own sign-ins: a server opening a session for them, or an impersonation, is not their device.
      const devices =
        options.signIn && !options.signIn.byCaller && !impersonator ? deps.newDevice : undefined;
      const firstDevice = devices && options.signIn?.isNewUser ? devices.firstDevice(user) : undefined;
      // The audit entry, and a new user's first device, are written by the session's own insert: one statement, and
      // neither when the insert is refused.
      const alongside = [record && deps.audit.alongside(user.projectId, record), firstDevice].filter(
        (part): part is Alongside => part !== undefined,
      );
      const opened = await deps.repo.insertUnlessBanned(
        tx,
        {
          id: sessionId,
          projectId: user.projectId,
          userId: user.id,
          refreshTokenHash: sha256Hex(refreshToken),
          isImpersonation: impersonator !== undefined,
          impersonatedBy: impersonator?.kind ?? null,
          impersonatorUserId: impersonator?.userId ?? null,
          // An impersonation is nobody's proof of who they are, whatever method is named.
          amr: impersonator || options.signIn?.byCaller ? [] : amrOf(options.signIn?.method),
          createdAt: now,
          lastUsedAt: now,
          expiresAt: new Date(now.getTime() + (options.expiresInMs ?? SIGN_IN_SESSION_MS)),
        },
        alongside,
      );
      // The user row said no (checked with the insert, so a ban committed meanwhile counts): banned, or deleted.
      if (!opened) {
        if (!(await deps.users.find(user.projectId, user.id, tx))) throw KnownErrors.USER_NOT_FOUND();
        throw bannedError();
      }
      if (devices && options.signIn && !firstDevice) await devices.signedIn(tx, user, options.signIn);
      return { user, sessionId, refreshToken };
    },

    /** For a sign-in that pauses before its session (the MFA step): a banned user is refused at once. */
    assertMaySignIn(user: UserRecord): void {
      if (user.restrictedByAdmin) throw bannedError();
    },

    /** `project`: the request's, when the caller has it (saves the mint reading it again). */
    async issue(
      opened: { user: UserRecord; sessionId: string; refreshToken: string },
      project?: Project,
    ): Promise<IssuedSession> {
      return {
        ...opened,
        accessToken: await mintAccessToken(opened.user, opened.sessionId, undefined, project),
      };
    },

    /** Creates the user with `insertUser` and its session in one transaction, then mints the tokens. */
    async signInNew(
      insertUser: (tx: Db) => Promise<UserRecord>,
      method: string,
      project?: Project,
    ): Promise<IssuedSession> {
      const opened = await inTransaction(deps.db, async (tx) =>
        this.open(tx, await insertUser(tx), { signIn: { method, isNewUser: true } }),
      );
      return this.issue(opened, project);
    },

    /**
     * Mints a new access token for a refresh token. Valid while the session exists, has not expired and its user
     * exists (the user's deletion deletes the session). Records the use on the session and the user.
     */
    async refresh(project: Project, refreshToken: string): Promise<Refreshed> {
      const found = await deps.users.findByRefreshHash(project.id, sha256Hex(refreshToken));
      const session = found && { id: found.sessionId, user: found.user, expiresAt: found.sessionExpiresAt };
      return this.refreshSession(project, refreshToken, session);
    },

    /**
     * The refresh of a session already found by its current refresh token (the token endpoint reads it with
     * project and key). Under rotation (WIRE.md §3.4) a new refresh token replaces the presented one; a previous
     * token is honoured for 30 seconds after it was replaced, and any other replay ends the session.
     */
    async refreshSession(
      project: Project,
      presented: string,
      session: RefreshableSession | undefined,
    ): Promise<Refreshed> {
      const now = clock.now();
      const rotation = project.config.refresh_token_rotation;
      if (!session) {
        if (rotation) return replayed(project.id, presented, now);
        throw KnownErrors.REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED();
      }
      if (session.expiresAt <= now) throw KnownErrors.REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED();
      // A ban ends the user's sessions; one that slipped past it (opened while the ban committed) ends here.
      if (session.user.restrictedByAdmin) {
        await this.end(session.id);
        throw KnownErrors.REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED();
      }
      deps.activity.record(session.id, now);
      let refreshToken = presented;
      if (rotation) {
        refreshToken = successorOf(presented);
        await deps.repo.rotate(session.id, sha256Hex(presented), sha256Hex(refreshToken), now);
      }
      return {
        accessToken: await mintAccessToken(session.user, session.id, undefined, project),
        refreshToken,
        rotated: rotation,
      };
    },

    /** Ends every session of the user, or all but `keep`, in the caller's transaction. */
    endAllForUser: (tx: Db, userId: string, keep?: string) => deps.repo.deleteForUser(tx, userId, keep),

    /** Lists sessions with this process's pending uses written first, so a client sees its own refreshes. */
    async list(projectId: string, userId: string) {
      await deps.activity.flush();
      return deps.repo.listForUser(projectId, userId);
    },

    /** The session of a refresh token and its user's id, or undefined. */
    async findByRefreshToken(projectId: string, refreshToken: string) {
      const found = await deps.users.findByRefreshHash(projectId, sha256Hex(refreshToken));
      return found && { id: found.sessionId, userId: found.user.id };
    },

    /** Ends the session of this refresh token when it belongs to `userId` (sign-out sends both tokens). */
    async endByRefreshToken(projectId: string, userId: string, refreshToken: string): Promise<void> {
      const session = await this.findByRefreshToken(projectId, refreshToken);
      if (session?.userId === userId) await this.end(session.id, { projectId, userId, type: "sign_out" });
    },
    find: (projectId: string, sessionId: string) => deps.repo.find(projectId, sessionId),
    /** Ends a session; with `audit`, a sign-out or revocation that really ended one is recorded with it. */
    end: (sessionId: string, audit?: SessionEnd) =>
      inTransaction(deps.db, async (tx) => {
        const ended = await deps.repo.delete(tx, sessionId);
        if (ended && audit) {
          await deps.audit.record(tx, audit.projectId, {
            type: audit.type,
            target: { type: "user", id: audit.userId },
            details: { session_id: sessionId },
          });
        }
      }),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
