// Rows behind the Stack features Gatehouse serves without an outside service: dashboard AI chat threads, the
// e-mail capacity boost, sent-mail counts for delivery info, and the users an onboarding change would restrict.
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { aiChatMessages, contactChannels, emailCapacityBoosts, emailOutbox, users } from "./schema.ts";

export type AffectedUserRow = { id: string; displayName: string | null; primaryEmail: string | null };

export function createOutsideServicesRepo(db: Db) {
  /** Non-anonymous users of the project without a verified primary e-mail (Stack's "would be restricted"). */
  const unverified = (projectId: string) =>
    and(
      eq(users.projectId, projectId),
      eq(users.isAnonymous, false),
      sql`not exists (select 1 from ${contactChannels} where ${contactChannels.userId} = ${users.id}
        and ${contactChannels.isPrimary} and ${contactChannels.isVerified})`,
    );

  return {
    async chatMessages(projectId: string, threadId: string): Promise<unknown[]> {
      const rows = await db
        .select({ content: aiChatMessages.content })
        .from(aiChatMessages)
        .where(and(eq(aiChatMessages.projectId, projectId), eq(aiChatMessages.threadId, threadId)))
        .orderBy(asc(aiChatMessages.seq));
      return rows.map((row) => row.content);
    },

    async addChatMessage(projectId: string, threadId: string, content: unknown): Promise<void> {
      // As JSON text: drizzle would send a `null` message as SQL NULL, and Stack stores it as the JSON value null.
      const json = sql`${JSON.stringify(content)}::jsonb`;
      await db.insert(aiChatMessages).values({ projectId, threadId, content: json });
    },

    async boostExpiry(projectId: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ expiresAt: emailCapacityBoosts.expiresAt })
        .from(emailCapacityBoosts)
        .where(eq(emailCapacityBoosts.projectId, projectId));
      return row?.expiresAt;
    },

    /**
     * Starts a boost unless one is still running at `now`; returns the running boost's expiry instead. One
     * statement, so two concurrent requests cannot both start one.
     */
    async startBoost(
      projectId: string,
      now: Date,
      expiresAt: Date,
    ): Promise<{ started: boolean; expiresAt: Date }> {
      const [row] = await db
        .insert(emailCapacityBoosts)
        .values({ projectId, expiresAt })
        .onConflictDoUpdate({
          target: emailCapacityBoosts.projectId,
          set: { expiresAt },
          setWhere: sql`${emailCapacityBoosts.expiresAt} <= ${now}`,
        })
        .returning({ expiresAt: emailCapacityBoosts.expiresAt });
      if (row) return { started: true, expiresAt: row.expiresAt };
      const running = await this.boostExpiry(projectId);
      return { started: false, expiresAt: running ?? expiresAt };
    },

    /** E-mails delivered since each of the given instants (the outbox's `sent` rows by their send time). */
    async sentSince(projectId: string, since: readonly Date[]): Promise<number[]> {
      const [row] = await db
        .select(
          Object.fromEntries(
            since.map((from, i) => [
              `w${i}`,
              sql<string>`count(*) filter (where ${emailOutbox.sentAt} >= ${from})`,
            ]),
          ),
        )
        .from(emailOutbox)
        .where(and(eq(emailOutbox.projectId, projectId), eq(emailOutbox.status, "sent")));
      return since.map((_, i) => Number((row as Record<string, unknown> | undefined)?.[`w${i}`] ?? 0));
    },

    async countUnverifiedUsers(projectId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(users).where(unverified(projectId));
      return row?.n ?? 0;
    },

    /** The newest sign-ups among them, with their primary e-mail (unverified, or none). */
    async unverifiedUsers(projectId: string, limit: number): Promise<AffectedUserRow[]> {
      return db
        .select({ id: users.id, displayName: users.displayName, primaryEmail: contactChannels.value })
        .from(users)
        .leftJoin(
          contactChannels,
          and(eq(contactChannels.userId, users.id), eq(contactChannels.isPrimary, true)),
        )
        .where(unverified(projectId))
        .orderBy(desc(users.signedUpAt), desc(users.id))
        .limit(limit);
    },
  };
}

export type OutsideServicesRepo = ReturnType<typeof createOutsideServicesRepo>;
