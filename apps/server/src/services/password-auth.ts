// Password sign-up and sign-in (WIRE.md §4.1). Both paths spend exactly one argon2id computation whatever the
// e-mail, so neither answers nor timing reveal which addresses have accounts.
import { KnownErrors } from "@gatehouse/contract";
import type { PasswordHasher } from "../crypto/password.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";
import type { Project } from "./projects.ts";
import type { SessionService } from "./sessions.ts";
import { assertTrustedUrl } from "./trusted-urls.ts";
import type { UserService } from "./users.ts";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Length in Unicode code points, as WIRE.md §4.1 counts it. */
export function assertPasswordLength(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) throw KnownErrors.PASSWORD_TOO_SHORT({ min_length: PASSWORD_MIN_LENGTH });
  if (length > PASSWORD_MAX_LENGTH) throw KnownErrors.PASSWORD_TOO_LONG({ maxLength: PASSWORD_MAX_LENGTH });
}

export function createPasswordAuth(deps: {
  db: Db;
  hasher: PasswordHasher;
  users: UserService;
  usersRepo: UsersRepo;
  sessions: SessionService;
}) {
  const emailTaken = (email: string) =>
    KnownErrors.USER_EMAIL_ALREADY_EXISTS({ email, would_work_if_email_was_verified: false });

  return {
    async signUp(
      project: Project,
      caller: UserRecord | null,
      input: { email: string; password: string; verification_callback_url?: string },
    ) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      assertTrustedUrl(project.config, input.verification_callback_url);
      if (!project.config.sign_up_enabled) throw KnownErrors.SIGN_UP_NOT_ENABLED();
      assertPasswordLength(input.password);
      // Hash before looking the address up: a taken address then costs the same time as a free one.
      const passwordHash = await deps.hasher.hash(input.password);
      if (await deps.usersRepo.findByAuthEmail(project.id, input.email)) throw emailTaken(input.email);
      const email = { value: input.email, verified: false, usedForAuth: true };
      try {
        if (caller?.isAnonymous) {
          // An anonymous caller becomes this user: same id, so its data stays attached.
          const opened = await inTransaction(deps.db, async (tx) => {
            await deps.usersRepo.update(tx, caller.id, { isAnonymous: false, passwordHash });
            await deps.users.addPrimaryEmail(tx, project.id, caller.id, email);
            const user = await deps.usersRepo.find(project.id, caller.id, tx);
            if (!user) throw new Error("Upgraded user vanished inside its own transaction");
            return deps.sessions.open(tx, user);
          });
          return await deps.sessions.issue(opened);
        }
        return await deps.sessions.signInNew(project.id, (tx) =>
          deps.users.create(tx, { projectId: project.id, email, passwordHash }),
        );
      } catch (error) {
        // Two sign-ups racing for one address: the unique index lets one win; the other gets the known error.
        if (isUniqueViolation(error)) throw emailTaken(input.email);
        throw error;
      }
    },

    async signIn(project: Project, input: { email: string; password: string }) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      const user = await deps.usersRepo.findByAuthEmail(project.id, input.email);
      if (!user?.passwordHash) {
        await deps.hasher.burn(input.password);
        throw KnownErrors.EMAIL_PASSWORD_MISMATCH();
      }
      if (!(await deps.hasher.verify(user.passwordHash, input.password)))
        throw KnownErrors.EMAIL_PASSWORD_MISMATCH();
      const rehash = deps.hasher.needsRehash(user.passwordHash)
        ? await deps.hasher.hash(input.password)
        : undefined;
      const opened = await inTransaction(deps.db, async (tx) => {
        if (rehash) await deps.usersRepo.update(tx, user.id, { passwordHash: rehash });
        return deps.sessions.open(tx, user);
      });
      return deps.sessions.issue(opened);
    },
  };
}

export type PasswordAuth = ReturnType<typeof createPasswordAuth>;
