// The outbox as Stack Auth exposes it (`/emails/outbox`): our rows in Stack's shape, listed by Stack's statuses with
// its cursor, and paused, resumed, rescheduled or cancelled while not sent yet. `/internal/emails` stays as it is.
import { KnownErrors } from "@gatehouse/contract";
import { and, desc, eq, gt, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { emailOutbox } from "../db/schema.ts";
import { TextError } from "../text-error.ts";
import type { OutboxRow } from "./outbox.ts";
import { tsxUnsupported } from "./stack-templates.ts";

const MAX_LIMIT = 100;
type Stored = OutboxRow["status"];

/**
 * Our statuses as Stack's: `kept` (held in the development inbox) counts as sent, without delivery info; a queued
 * row not yet tried whose time has not come is `scheduled`. Stack's other statuses (opened, bounced…) never occur.
 */
function stackStatus(row: OutboxRow, now: Date): { status: string; simple: "in-progress" | "ok" | "error" } {
  switch (row.status) {
    case "paused":
      return { status: "paused", simple: "in-progress" };
    case "queued":
      return row.attempts === 0 && row.nextAttemptAt > now
        ? { status: "scheduled", simple: "in-progress" }
        : { status: "queued", simple: "in-progress" };
    case "sent":
    case "kept":
      return { status: "sent", simple: "ok" };
    case "failed":
      return { status: "server-error", simple: "error" };
    case "skipped":
      return { status: "skipped", simple: "ok" };
  }
}

/** Stack's status filter as a condition on ours; a status we never have matches nothing. */
function statusFilter(status: string | undefined, simple: string | undefined, now: Date): SQL | undefined {
  const stored = (...s: Stored[]) => inArray(emailOutbox.status, s);
  const byStatus: Record<string, SQL | undefined> = {
    paused: stored("paused"),
    scheduled: and(stored("queued"), eq(emailOutbox.attempts, 0), gt(emailOutbox.nextAttemptAt, now)),
    queued: and(
      stored("queued"),
      or(gt(emailOutbox.attempts, 0), sql`${emailOutbox.nextAttemptAt} <= ${now}`),
    ),
    sent: stored("sent", "kept"),
    "server-error": stored("failed"),
    skipped: stored("skipped"),
  };
  const bySimple: Record<string, SQL | undefined> = {
    "in-progress": stored("queued", "paused"),
    ok: stored("sent", "kept", "skipped"),
    error: stored("failed"),
  };
  const none = sql`false`;
  return and(
    status === undefined ? undefined : (byStatus[status] ?? none),
    simple === undefined ? undefined : (bySimple[simple] ?? none),
  );
}

export function stackOutboxItem(row: OutboxRow, now: Date) {
  const { status, simple } = stackStatus(row, now);
  const created = row.createdAt.getTime();
  const updated = (row.updatedAt ?? row.sentAt ?? row.createdAt).getTime();
  const base = {
    id: row.id,
    created_at_millis: created,
    updated_at_millis: updated,
    // There is no TSX behind our e-mails; the rendered HTML is in `html`.
    tsx_source: "",
    theme_id: null,
    to: row.userId
      ? { type: "user-primary-email" as const, user_id: row.userId }
      : { type: "custom-emails" as const, emails: [row.to] },
    variables: row.variables ?? {},
    skip_deliverability_check: false,
    scheduled_at_millis:
      row.status === "queued" && row.attempts === 0 ? row.nextAttemptAt.getTime() : created,
    created_with: "programmatic-call" as const,
    email_draft_id: null,
    email_programmatic_call_template_id: row.stackTemplateId,
    send_retries: row.attempts,
    next_send_retry_at_millis:
      row.status === "queued" && row.attempts > 0 ? row.nextAttemptAt.getTime() : null,
    send_attempt_errors: null,
    status,
    simple_status: simple,
    is_paused: row.status === "paused",
    has_delivered: false,
  };
  // Every row is rendered when it is queued, so the rendered fields are always known.
  const rendered = {
    has_rendered: true,
    started_rendering_at_millis: created,
    rendered_at_millis: created,
    subject: row.subject,
    html: row.html,
    text: row.text,
    is_transactional: row.listUnsubscribeUrl === null,
    is_high_priority: false,
    notification_category_id: row.notificationCategoryId,
  };
  if (row.status === "paused") return { ...base, has_rendered: false };
  if (row.status === "skipped")
    return {
      ...base,
      ...rendered,
      skipped_at_millis: updated,
      skipped_reason: row.skippedReason ?? "UNKNOWN",
      skipped_details: {},
    };
  if (row.status === "queued") return { ...base, ...rendered };
  const startedSending = { ...base, ...rendered, started_sending_at_millis: updated };
  if (row.status === "failed")
    return {
      ...startedSending,
      error_at_millis: updated,
      server_error: row.lastError ?? "Unknown send error",
    };
  return {
    ...startedSending,
    has_delivered: true,
    delivered_at_millis: (row.sentAt ?? row.updatedAt ?? row.createdAt).getTime(),
    can_have_delivery_info: false,
  };
}

export type StackOutboxUpdate = {
  is_paused?: boolean;
  cancel?: true;
  scheduled_at_millis?: number;
  tsx_source?: string;
  theme_id?: unknown;
  to?: unknown;
  variables?: unknown;
};

export function createStackOutbox(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const own = (projectId: string, id: string) =>
    and(eq(emailOutbox.projectId, projectId), eq(emailOutbox.id, id));

  return {
    async list(
      projectId: string,
      query: { status?: string; simple_status?: string; limit?: string; cursor?: string },
    ) {
      const limit = query.limit === undefined ? MAX_LIMIT : Number.parseInt(query.limit, 10);
      if (Number.isNaN(limit) || limit < 1) throw new TextError(400, "Invalid limit parameter");
      if (limit > MAX_LIMIT) throw new TextError(400, `Limit cannot exceed ${MAX_LIMIT}`);
      const now = clock.now();
      let from: SQL | undefined;
      if (query.cursor !== undefined) {
        // The cursor is the id of the next page's first e-mail; pages run newest first in insertion order.
        const [start] = await db
          .select({ createdAt: emailOutbox.createdAt, seq: emailOutbox.seq })
          .from(emailOutbox)
          .where(own(projectId, query.cursor));
        if (!start) return { items: [], is_paginated: true as const, pagination: { next_cursor: null } };
        from = or(
          lt(emailOutbox.createdAt, start.createdAt),
          and(eq(emailOutbox.createdAt, start.createdAt), sql`${emailOutbox.seq} <= ${start.seq}`),
        );
      }
      const rows = await db
        .select()
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.projectId, projectId),
            statusFilter(query.status, query.simple_status, now),
            from,
          ),
        )
        .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.seq))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      return {
        items: page.map((row) => stackOutboxItem(row, now)),
        is_paginated: true as const,
        pagination: { next_cursor: rows[limit]?.id ?? null },
      };
    },

    async get(projectId: string, id: string) {
      const [row] = await db.select().from(emailOutbox).where(own(projectId, id));
      if (!row) throw new TextError(404, "Email not found");
      return stackOutboxItem(row, clock.now());
    },

    /**
     * Only an e-mail not sent yet changes: one conditional UPDATE, so a row the worker settles meanwhile is left
     * alone. A row the worker is sending at this moment still goes out (its settle then finds it paused and leaves
     * the pause); there is no way to call back a message already handed to SMTP.
     */
    async update(projectId: string, id: string, changes: StackOutboxUpdate) {
      const contentEdit = ["tsx_source", "theme_id", "to", "variables"] as const;
      if (contentEdit.some((key) => changes[key] !== undefined)) throw tsxUnsupported();
      const now = clock.now();
      const set: Partial<typeof emailOutbox.$inferInsert> = { updatedAt: now };
      let editable: Stored[] = ["queued", "paused"];
      if (changes.cancel) {
        editable = ["queued", "paused", "failed"];
        Object.assign(set, { status: "skipped", skippedReason: "MANUALLY_CANCELLED" });
      } else {
        if (changes.is_paused !== undefined) set.status = changes.is_paused ? "paused" : "queued";
        if (changes.scheduled_at_millis !== undefined)
          set.nextAttemptAt = new Date(changes.scheduled_at_millis);
      }
      const [updated] = await db
        .update(emailOutbox)
        .set(set)
        .where(and(own(projectId, id), inArray(emailOutbox.status, editable)))
        .returning();
      if (updated) return stackOutboxItem(updated, now);
      const [existing] = await db.select().from(emailOutbox).where(own(projectId, id));
      if (!existing) throw new TextError(404, "Email not found");
      // Stack names the status as its database has it: SENT, SKIPPED, SERVER_ERROR…
      const status = stackStatus(existing, now).status.toUpperCase().replace(/-/g, "_");
      throw KnownErrors.EMAIL_NOT_EDITABLE({ email_id: id, status });
    },
  };
}

export type StackOutbox = ReturnType<typeof createStackOutbox>;
