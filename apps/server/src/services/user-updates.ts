// Changes users make to themselves (WIRE.md §4.8): profile fields, the primary e-mail, one-time-code sign-in and
// the TOTP secret; and deleting the account, which ends every session with it.
import { randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { UserRecord, UserRow, UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import type { UserService } from "./users.ts";

export type SelfUpdate = {
  display_name?: string | null;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  primary_email?: string | null;
  selected_team_id?: string | null;
  totp_secret_base64?: string | null;
  otp_auth_enabled?: boolean;
  passkey_auth_enabled?: boolean;
};

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

export function createUserUpdates(deps: {
  db: Db;
  repo: UsersRepo;
  users: UserService;
  teamsRepo: TeamsRepo;
  clock: Clock;
  totpBox: SecretBox;
}) {
  /** Demotes the old primary and makes `email` primary, keeping the old primary's sign-in flag. */
  async function changePrimaryEmail(tx: Db, user: UserRecord, email: string | null) {
    const old = user.primaryEmail
      ? await deps.repo.findChannel(tx, user.id, user.primaryEmail.value)
      : undefined;
    if (email !== null && old?.normalized === email.toLowerCase()) return;
    if (old) await deps.repo.updateChannel(tx, old.id, { isPrimary: false });
    if (email === null) return;
    const usedForAuth = old?.usedForAuth ?? false;
    const existing = await deps.repo.findChannel(tx, user.id, email);
    if (existing) {
      await deps.repo.updateChannel(tx, existing.id, { isPrimary: true, usedForAuth });
      return;
    }
    await deps.repo.insertChannel(tx, {
      id: randomUUID(),
      projectId: user.projectId,
      userId: user.id,
      value: email,
      normalized: email.toLowerCase(),
      isVerified: false,
      isPrimary: true,
      usedForAuth,
      createdAt: deps.clock.now(),
    });
  }

  return {
    async update(user: UserRecord, input: SelfUpdate): Promise<UserRecord> {
      if (input.profile_image_url !== undefined) assertProfileImageUrl(input.profile_image_url);
      const changes: Partial<UserRow> = {};
      if (input.display_name !== undefined) changes.displayName = input.display_name;
      if (input.profile_image_url !== undefined) changes.profileImageUrl = input.profile_image_url;
      if (input.client_metadata !== undefined) changes.clientMetadata = input.client_metadata;
      if (input.otp_auth_enabled !== undefined) changes.otpAuthEnabled = input.otp_auth_enabled;
      if (input.selected_team_id !== undefined) changes.selectedTeamId = input.selected_team_id;
      if (input.totp_secret_base64 !== undefined) {
        const secret = input.totp_secret_base64;
        changes.sealedTotpSecret = secret === null ? null : deps.totpBox.seal(secret);
      }
      try {
        return await inTransaction(deps.db, async (tx) => {
          const teamId = input.selected_team_id;
          // Checked inside the transaction: a membership that ends meanwhile cannot stay selected.
          if (teamId && !(await deps.teamsRepo.findMember(teamId, user.id, tx))) {
            throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: teamId, user_id: user.id });
          }
          if (Object.keys(changes).length > 0) await deps.repo.update(tx, user.id, changes);
          if (input.primary_email !== undefined) await changePrimaryEmail(tx, user, input.primary_email);
          await deps.users.recordEvent(tx, user.projectId, user.id, "user.updated");
          const updated = await deps.repo.find(user.projectId, user.id, tx);
          if (!updated) throw KnownErrors.USER_NOT_FOUND();
          return updated;
        });
      } catch (error) {
        // The address signs someone else in: the unique index on auth-enabled addresses refused it.
        if (isUniqueViolation(error) && input.primary_email) {
          throw KnownErrors.USER_EMAIL_ALREADY_EXISTS({
            email: input.primary_email,
            would_work_if_email_was_verified: false,
          });
        }
        throw error;
      }
    },
  };
}

export type UserUpdates = ReturnType<typeof createUserUpdates>;
