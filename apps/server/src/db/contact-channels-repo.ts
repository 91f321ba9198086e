// Contact-channel rows by id (WIRE.md §4.9), and which of the channel table's unique indexes refused a write. Lookups by address, inserts and updates of single
// channels are users-repo.ts's.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { constraintOf, isUniqueViolation } from "./errors.ts";
import { contactChannels, users } from "./schema.ts";
import type { ChannelRow } from "./users-repo.ts";

/** The unique indexes of contact_channels (schema.ts), by what a violation of each means. */
const CONFLICTS = {
  contact_channels_auth_idx: "used_for_auth_elsewhere",
  contact_channels_user_value_idx: "duplicate_value",
  contact_channels_primary_idx: "second_primary",
} as const;

export type ChannelConflict = (typeof CONFLICTS)[keyof typeof CONFLICTS];

/** Which channel rule a failed write broke, or undefined when the error is something else. */
export function channelConflictOf(error: unknown): ChannelConflict | undefined {
  if (!isUniqueViolation(error)) return undefined;
  return CONFLICTS[constraintOf(error) as keyof typeof CONFLICTS];
}

export function createContactChannelsRepo(db: Db) {
  const owner = (executor: Db, projectId: string, userId: string) =>
    executor
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.projectId, projectId), eq(users.id, userId)));

  return {
    async ownerExists(projectId: string, userId: string): Promise<boolean> {
      return (await owner(db, projectId, userId)).length > 0;
    },

    /** A user's channels (or the one with `channelId`), oldest first. */
    list(projectId: string, userId: string, channelId?: string, executor: Db = db): Promise<ChannelRow[]> {
      return executor
        .select()
        .from(contactChannels)
        .where(
          and(
            eq(contactChannels.projectId, projectId),
            eq(contactChannels.userId, userId),
            channelId === undefined ? undefined : eq(contactChannels.id, channelId),
          ),
        )
        .orderBy(asc(contactChannels.createdAt), asc(contactChannels.id));
    },

    async find(
      projectId: string,
      userId: string,
      channelId: string,
      executor: Db = db,
    ): Promise<ChannelRow | undefined> {
      const [row] = await this.list(projectId, userId, channelId, executor);
      return row;
    },

    /** Makes none of the user's channels primary (before another one becomes primary); answers the one demoted. */
    async demotePrimary(tx: Db, userId: string): Promise<string | null> {
      const [demoted] = await tx
        .update(contactChannels)
        .set({ isPrimary: false })
        .where(and(eq(contactChannels.userId, userId), eq(contactChannels.isPrimary, true)))
        .returning({ value: contactChannels.value });
      return demoted?.value ?? null;
    },

    async delete(tx: Db, channelId: string): Promise<void> {
      await tx.delete(contactChannels).where(eq(contactChannels.id, channelId));
    },
  };
}

export type ContactChannelsRepo = ReturnType<typeof createContactChannelsRepo>;
