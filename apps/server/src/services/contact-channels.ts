// Contact channels (WIRE.md §4.9): a user's e-mail addresses, which of them sign the user in, which one is primary,
// and the verification e-mail for one. Every change runs in one transaction that holds a lock on the user's row.
import { randomUUID } from "node:crypto";
import { type ContactChannel, KnownErrors } from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { channelConflictOf, createContactChannelsRepo } from "../db/contact-channels-repo.ts";
import type { ChannelRow, UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import type { EmailVerification } from "./email-verification.ts";
import type { Project } from "./projects.ts";
import type { RateLimiter } from "./rate-limits.ts";
import { assertTrustedUrl } from "./trusted-urls.ts";
import type { UserService } from "./users.ts";

export type NewChannel = { value: string; usedForAuth: boolean; isPrimary: boolean; isVerified: boolean };
export type ChannelChanges = Partial<NewChannel>;

/** The fields of a channel the wire shows; the user object shows them too when the channel is the primary one. */
const VISIBLE_FIELDS = ["value", "isVerified", "usedForAuth", "isPrimary"] as const;

const notFound = (status: 400 | 404) => new TextError(status, "Contact channel not found");
const alreadyExists = () => new TextError(400, "Contact channel already exists");

export function toContactChannel(row: ChannelRow): ContactChannel {
  return {
    user_id: row.userId,
    id: row.id,
    value: row.value,
    type: row.type,
    used_for_auth: row.usedForAuth,
    is_verified: row.isVerified,
    is_primary: row.isPrimary,
  };
}

export function createContactChannelService(deps: {
  db: Db;
  clock: Clock;
  usersRepo: UsersRepo;
  users: UserService;
  emailVerification: EmailVerification;
  rateLimits: RateLimiter;
  audit: AuditLog;
}) {
  const repo = createContactChannelsRepo(deps.db);

  /** Runs `change` in a transaction holding the user's lock; a user the project does not have → USER_NOT_FOUND. */
  function withOwner<T>(projectId: string, userId: string, change: (tx: Db) => Promise<T>): Promise<T> {
    return inTransaction(deps.db, async (tx) => {
      if (!(await deps.usersRepo.lockUser(tx, projectId, userId))) throw KnownErrors.USER_NOT_FOUND();
      return change(tx);
    });
  }

  /** The same address twice for one user. Read under the owner lock, so two requests cannot both pass. */
  async function assertNewValue(tx: Db, userId: string, value: string): Promise<void> {
    if (await deps.usersRepo.findChannel(tx, userId, value)) throw alreadyExists();
  }

  /**
   * A write that may make `value` a sign-in address. Another user's claim on it is refused by the unique index on
   * auth-enabled addresses rather than by an earlier read: of two simultaneous claims, exactly one wins.
   */
  async function write(value: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      const conflict = channelConflictOf(error);
      if (conflict === "used_for_auth_elsewhere") {
        throw KnownErrors.CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE({
          type: "email",
          contact_channel_value: value,
          would_work_if_email_was_verified: false,
        });
      }
      // Only a writer that does not take the owner lock (a primary e-mail change of the user) can get here.
      if (conflict === "duplicate_value") throw alreadyExists();
      throw error;
    }
  }

  /** A new primary address, or the primary one's new value, is audited as the user's e-mail change (issue 21). */
  const emailChanged = (tx: Db, projectId: string, userId: string, from: string | null, to: string) =>
    deps.audit.record(tx, projectId, {
      type: "user.email_changed",
      target: { type: "user", id: userId },
      details: { from, to, via: "contact_channel" },
    });

  /** The primary e-mail is part of the user object, so changing it is a `user.updated`. */
  const userUpdated = (tx: Db, projectId: string, userId: string) =>
    deps.users.recordEvent(tx, projectId, userId, "user.updated");

  /** A user's channels, or the one with `channelId`; a user the project does not have → USER_NOT_FOUND. */
  async function list(projectId: string, userId: string, channelId?: string): Promise<ChannelRow[]> {
    if (!(await repo.ownerExists(projectId, userId))) throw KnownErrors.USER_NOT_FOUND();
    return repo.list(projectId, userId, channelId);
  }

  return {
    list,

    async get(projectId: string, userId: string, channelId: string): Promise<ChannelRow> {
      const [channel] = await list(projectId, userId, channelId);
      if (!channel) throw notFound(400);
      return channel;
    },

    create(projectId: string, userId: string, input: NewChannel): Promise<ChannelRow> {
      return withOwner(projectId, userId, async (tx) => {
        await assertNewValue(tx, userId, input.value);
        // One primary per user: the old one steps down in the same transaction.
        const previous = input.isPrimary ? await repo.demotePrimary(tx, userId) : null;
        const channel: ChannelRow = {
          id: randomUUID(),
          projectId,
          userId,
          type: "email",
          value: input.value,
          normalized: input.value.toLowerCase(),
          isVerified: input.isVerified,
          isPrimary: input.isPrimary,
          usedForAuth: input.usedForAuth,
          createdAt: deps.clock.now(),
        };
        await write(channel.value, () => deps.usersRepo.insertChannel(tx, channel));
        if (channel.isPrimary) {
          await emailChanged(tx, projectId, userId, previous, channel.value);
          await userUpdated(tx, projectId, userId);
        }
        return channel;
      });
    },

    update(projectId: string, userId: string, channelId: string, input: ChannelChanges): Promise<ChannelRow> {
      return withOwner(projectId, userId, async (tx) => {
        const before = await repo.find(projectId, userId, channelId, tx);
        if (!before) throw notFound(400);
        const after = { ...before };
        if (input.value !== undefined) {
          const normalized = input.value.toLowerCase();
          if (normalized !== before.normalized) {
            await assertNewValue(tx, userId, input.value);
            // Nobody has proven they receive mail at the new address (a server caller may say so with is_verified).
            after.isVerified = false;
          }
          after.value = input.value;
          after.normalized = normalized;
        }
        if (input.isVerified !== undefined) after.isVerified = input.isVerified;
        if (input.usedForAuth !== undefined) after.usedForAuth = input.usedForAuth;
        if (input.isPrimary !== undefined) after.isPrimary = input.isPrimary;
        if (!VISIBLE_FIELDS.some((field) => before[field] !== after[field])) return before;

        const demoted = after.isPrimary && !before.isPrimary ? await repo.demotePrimary(tx, userId) : null;
        const { value, normalized, isVerified, usedForAuth, isPrimary } = after;
        await write(value, () =>
          deps.usersRepo.updateChannel(tx, channelId, {
            value,
            normalized,
            isVerified,
            usedForAuth,
            isPrimary,
          }),
        );
        if (after.isPrimary && (!before.isPrimary || before.normalized !== after.normalized))
          await emailChanged(tx, projectId, userId, before.isPrimary ? before.value : demoted, after.value);
        if (before.isPrimary || after.isPrimary) await userUpdated(tx, projectId, userId);
        return after;
      });
    },

    /** Sign-in with the address goes with the row. */
    delete(projectId: string, userId: string, channelId: string): Promise<void> {
      return withOwner(projectId, userId, async (tx) => {
        const channel = await repo.find(projectId, userId, channelId, tx);
        if (!channel) throw notFound(400);
        await repo.delete(tx, channel.id);
        if (channel.isPrimary) await userUpdated(tx, projectId, userId);
      });
    },

    /** E-mails an `email_verification` link bound to the user and this address (WIRE.md §5). */
    async sendVerificationCode(project: Project, userId: string, channelId: string, callbackUrl: string) {
      const user = await deps.usersRepo.find(project.id, userId);
      if (!user) throw KnownErrors.USER_NOT_FOUND();
      const channel = await repo.find(project.id, userId, channelId);
      if (!channel) throw notFound(404);
      if (channel.isVerified) throw KnownErrors.EMAIL_ALREADY_VERIFIED();
      assertTrustedUrl(project.config, callbackUrl);
      await deps.rateLimits.hit("email_send", `${project.id}:${channel.normalized}`);
      await inTransaction(deps.db, (tx) =>
        deps.emailVerification.send(tx, project, user, channel.value, callbackUrl),
      );
    },
  };
}

export type ContactChannelService = ReturnType<typeof createContactChannelService>;
