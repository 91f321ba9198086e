// The persisted e-mail outbox: services enqueue in their own transaction, the worker claims and settles rows, the
// admin API lists them (WIRE.md §4.18 `GET /internal/emails`).
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import { CHANGES_CHANNEL } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { emailOutbox } from "../db/schema.ts";

/** What a transaction that queues e-mail announces on the change feed (db/change-feed.ts): the workers wake. */
export const OUTBOX_CHANGE = "email-outbox";

export type EmailStatus = OutboxRow["status"];
export type OutboxRow = typeof emailOutbox.$inferSelect;

export type NewOutboxEmail = {
  projectId: string;
  to: string;
  templateType: string;
  subject: string;
  html: string;
  text: string;
};

/** One e-mail as `GET /internal/emails` returns it. */
export type OutboxEmailItem = {
  id: string;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  template_type: string;
  status: EmailStatus;
  attempts: number;
  created_at_millis: number;
  sent_at_millis: number | null;
  last_error: string | null;
};

/**
 * The Message-ID of an outbox row, the same on every attempt. A send cut off after the receiver took the message
 * (the process killed mid-exchange) is sent again when the lease runs out; with the same Message-ID receivers
 * recognise the copy (RFC 5322 §3.6.4: one message, one id). The row id is a random UUID, so the id is unique
 * worldwide; the domain is the sender's, as nodemailer's own ids have it.
 */
export function outboxMessageId(rowId: string, senderEmail: string): string {
  const domain = senderEmail.slice(senderEmail.lastIndexOf("@") + 1) || "localhost";
  return `<${rowId}@${domain}>`;
}

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;

export function outboxItem(row: OutboxRow): OutboxEmailItem {
  return {
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    template_type: row.templateType,
    status: row.status,
    attempts: row.attempts,
    created_at_millis: row.createdAt.getTime(),
    sent_at_millis: row.sentAt ? row.sentAt.getTime() : null,
    last_error: row.lastError,
  };
}

export function createEmailOutbox(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const settle = (id: string, changes: Partial<typeof emailOutbox.$inferInsert>) =>
    // Only a row still queued is settled: a row settled meanwhile (another worker after a lease ran out) stays.
    db
      .update(emailOutbox)
      .set(changes)
      .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, "queued")));

  return {
    /**
     * Queues an e-mail in the caller's transaction, so it exists exactly when the change that causes it does.
     * `send: false` runs the very same statement, which then inserts nothing: a caller that must not reveal whether
     * it had anyone to write to (a reset code for an address without an account) does the same work either way.
     */
    async enqueue(tx: Db, email: NewOutboxEmail, options: { send?: boolean } = {}): Promise<{ id: string }> {
      const id = randomUUID();
      // The injected clock, not the database's: the 24-hour retry window is measured against it.
      const now = clock.now().toISOString();
      const o = emailOutbox;
      const columns = [
        o.id,
        o.projectId,
        o.to,
        o.templateType,
        o.subject,
        o.html,
        o.text,
        o.status,
        o.attempts,
        o.nextAttemptAt,
        o.createdAt,
      ];
      const names = sql.join(
        columns.map((c) => sql.identifier(c.name)),
        sql`, `,
      );
      // INSERT … SELECT … WHERE, since a VALUES list cannot be conditional. The parameters are cast: a select list
      // gives them no column type to take. The same statement announces the row to the e-mail workers of every
      // process (heard when the transaction commits), so it goes out now rather than at the next poll.
      await tx.execute(sql`with queued as (insert into ${o} (${names})
        select ${id}::uuid, ${email.projectId}, ${email.to}, ${email.templateType}, ${email.subject}, ${email.html},
          ${email.text}, ${"queued"}, ${0}::integer, ${now}::timestamptz, ${now}::timestamptz
        where ${options.send ?? true}::boolean returning 1)
        select pg_notify(${CHANGES_CHANNEL}, ${OUTBOX_CHANGE}) from queued`);
      return { id };
    },

    /** The project's e-mails, newest first; `to` is an exact recipient. */
    async list(projectId: string, query: { to?: string; limit?: number } = {}): Promise<OutboxEmailItem[]> {
      const limit = Math.min(Math.max(Math.trunc(query.limit ?? LIST_DEFAULT_LIMIT), 1), LIST_MAX_LIMIT);
      const rows = await db
        .select()
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.projectId, projectId),
            query.to === undefined ? undefined : eq(emailOutbox.to, query.to),
          ),
        )
        .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.seq))
        .limit(limit);
      return rows.map(outboxItem);
    },

    /**
     * Claims up to `limit` due e-mails and pushes their next attempt to `leaseUntil`. One statement, so one short
     * transaction: SKIP LOCKED lets several processes claim side by side without taking the same rows, and a
     * process that dies mid-send leaves rows that become due again when the lease runs out, so nothing is lost.
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<OutboxRow[]> {
      const due = db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, "queued"), lte(emailOutbox.nextAttemptAt, now)))
        .orderBy(emailOutbox.nextAttemptAt)
        .limit(limit)
        .for("update", { skipLocked: true });
      return db
        .update(emailOutbox)
        .set({ nextAttemptAt: leaseUntil })
        .where(and(inArray(emailOutbox.id, due), eq(emailOutbox.status, "queued")))
        .returning();
    },

    async markSent(id: string, attempts: number, sentAt: Date): Promise<void> {
      await settle(id, { status: "sent", attempts, sentAt, lastError: null });
    },

    async markKept(id: string): Promise<void> {
      await settle(id, { status: "kept" });
    },

    async markRetry(id: string, attempts: number, error: string, nextAttemptAt: Date): Promise<void> {
      await settle(id, { attempts, lastError: error, nextAttemptAt });
    },

    async markFailed(id: string, attempts: number, error: string): Promise<void> {
      await settle(id, { status: "failed", attempts, lastError: error });
    },

    /** Not sent after all (the recipient unsubscribed since it was queued): Stack's `skipped`, with its reason. */
    async markSkipped(id: string, reason: string): Promise<void> {
      await settle(id, { status: "skipped", skippedReason: reason, updatedAt: clock.now() });
    },

    /** Clears the bodies of e-mails sent before `sentBefore` (they carry sign-in links; the list keeps the rest). */
    async clearSentBodies(sentBefore: Date): Promise<number> {
      const cleared = await db
        .update(emailOutbox)
        .set({ html: null, text: null })
        .where(
          and(
            eq(emailOutbox.status, "sent"),
            lt(emailOutbox.sentAt, sentBefore),
            or(isNotNull(emailOutbox.html), isNotNull(emailOutbox.text)),
          ),
        )
        .returning({ id: emailOutbox.id });
      return cleared.length;
    },

    /** For tests and diagnostics: one row as stored. */
    async find(id: string): Promise<OutboxRow | undefined> {
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
      return row;
    },
  };
}

export type EmailOutbox = ReturnType<typeof createEmailOutbox>;
