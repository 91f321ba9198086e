// CLI login (Stack's `/auth/cli`): start an attempt, poll it, and confirm it from a signed-in browser. Both codes are
// 225-bit random strings stored as SHA-256 hashes. The browser's refresh token is never stored or handed over: the
// confirmation records the user, and the poll that sees it opens a new session for the CLI, once.
import { randomUUID } from "node:crypto";
import { CLI_AUTH_DEFAULT_EXPIRY_MS, KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { randomCrockford } from "../crypto/random.ts";
import type { CliAuthAttempt, CliAuthRepo } from "../db/cli-auth-repo.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import type { Project } from "./projects.ts";
import type { SessionService } from "./sessions.ts";

const CODE_LENGTH = 45;
// Stack's texts for these failures (plain-text 400s, not known errors).
const INVALID_LOGIN_CODE = "Invalid login code or the code has expired";
const NO_ANONYMOUS_SESSION = "No anonymous session associated with this code";

export type CliPoll =
  | { status: "waiting" | "expired" | "used" }
  | { status: "success"; refreshToken: string };

export function createCliAuthService(deps: {
  db: Db;
  clock: Clock;
  repo: CliAuthRepo;
  usersRepo: UsersRepo;
  sessions: SessionService;
}) {
  const { repo, clock } = deps;

  /** The live session of a refresh token in this project: its user, or undefined. */
  async function sessionUser(project: Project, refreshToken: string) {
    const found = await deps.usersRepo.findByRefreshHash(project.id, sha256Hex(refreshToken));
    if (!found || found.sessionExpiresAt <= clock.now()) return undefined;
    return found.user;
  }

  /** An attempt the login code may still act on: not confirmed, not used, not expired. */
  async function pendingAttempt(project: Project, loginCode: string): Promise<CliAuthAttempt> {
    const attempt = await repo.findByLoginHash(project.id, sha256Hex(loginCode));
    if (!attempt || attempt.userId || attempt.usedAt || attempt.expiresAt <= clock.now())
      throw new TextError(400, INVALID_LOGIN_CODE);
    return attempt;
  }

  /** The attempt's anonymous CLI user while it still exists and is still anonymous. */
  async function anonymousUser(project: Project, attempt: CliAuthAttempt) {
    if (!attempt.anonUserId) return undefined;
    const user = await deps.usersRepo.find(project.id, attempt.anonUserId);
    return user?.isAnonymous ? user : undefined;
  }

  return {
    async start(project: Project, input: { expiresInMs?: number; anonRefreshToken?: string }) {
      let anonUserId: string | null = null;
      if (input.anonRefreshToken !== undefined) {
        const user = await sessionUser(project, input.anonRefreshToken);
        if (!user) throw new TextError(400, "Invalid anon refresh token");
        if (!user.isAnonymous)
          throw new TextError(400, "The provided refresh token does not belong to an anonymous user");
        anonUserId = user.id;
      }
      const pollingCode = randomCrockford(CODE_LENGTH);
      const loginCode = randomCrockford(CODE_LENGTH);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + (input.expiresInMs ?? CLI_AUTH_DEFAULT_EXPIRY_MS));
      await repo.insert({
        id: randomUUID(),
        projectId: project.id,
        pollingCodeHash: sha256Hex(pollingCode),
        loginCodeHash: sha256Hex(loginCode),
        anonUserId,
        createdAt: now,
        expiresAt,
      });
      return { polling_code: pollingCode, login_code: loginCode, expires_at: expiresAt.toISOString() };
    },

    /** Stack's order: unknown code, then expired, used, waiting; success only once, with a new session. */
    async poll(project: Project, pollingCode: string): Promise<CliPoll> {
      const attempt = await repo.findByPollingHash(project.id, sha256Hex(pollingCode));
      if (!attempt) throw KnownErrors.INVALID_POLLING_CODE();
      const now = clock.now();
      if (attempt.expiresAt <= now) return { status: "expired" };
      if (attempt.usedAt) return { status: "used" };
      const userId = attempt.userId;
      if (!userId) return { status: "waiting" };
      return inTransaction(deps.db, async (tx): Promise<CliPoll> => {
        // Of two concurrent polls only one marks the attempt used and gets the session.
        if (!(await repo.markUsed(tx, attempt.id, now))) return { status: "used" };
        const user = await deps.usersRepo.find(project.id, userId, tx);
        if (!user) return { status: "expired" };
        const opened = await deps.sessions.open(tx, user, { signIn: { method: "cli", isNewUser: false } });
        return { status: "success", refreshToken: opened.refreshToken };
      });
    },

    /** `complete`: the browser's session confirms; its user becomes the CLI's user. */
    async complete(project: Project, loginCode: string, refreshToken: string | undefined) {
      const attempt = await pendingAttempt(project, loginCode);
      if (refreshToken === undefined)
        throw new TextError(400, "refresh_token is required when mode is 'complete'");
      const user = await sessionUser(project, refreshToken);
      if (!user) throw new TextError(400, "Invalid refresh token");
      if (!(await repo.complete(attempt.id, user.id, clock.now())))
        throw new TextError(400, INVALID_LOGIN_CODE);
      return { success: true as const };
    },

    /** `check`: whether the CLI brought an anonymous session the browser could take over. */
    async check(project: Project, loginCode: string) {
      const attempt = await pendingAttempt(project, loginCode);
      const anonymous = await anonymousUser(project, attempt);
      return { cli_session_state: anonymous ? ("anonymous" as const) : ("none" as const) };
    },

    /** `claim-anon-session`: the browser gets a session of the CLI's anonymous user, once. */
    async claimAnonymous(project: Project, loginCode: string) {
      const attempt = await pendingAttempt(project, loginCode);
      const anonymous = await anonymousUser(project, attempt);
      if (!anonymous || !(await repo.claimAnonymous(attempt.id, anonymous.id, clock.now())))
        throw new TextError(400, NO_ANONYMOUS_SESSION);
      const opened = await inTransaction(deps.db, (tx) =>
        deps.sessions.open(tx, anonymous, { signIn: { method: "cli_anonymous", isNewUser: false } }),
      );
      const issued = await deps.sessions.issue(opened);
      return { access_token: issued.accessToken, refresh_token: issued.refreshToken };
    },
  };
}

export type CliAuthService = ReturnType<typeof createCliAuthService>;
