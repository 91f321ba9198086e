// The audit log's writes and reads (issue 21). Entries are written in the caller's transaction, so a change that
// rolls back leaves none; the actor, IP, user agent and request id come from the request's scope (scope.ts).
import { randomUUID } from "node:crypto";
import { type AuditEntry, type AuditEventType, isKnownError } from "@gatehouse/contract";
import { and, desc, eq, getTableColumns, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { auditLog, projects, webhookEvents } from "../db/schema.ts";
import type { Alongside } from "../db/sessions-repo.ts";
import type { Logger } from "../logger.ts";
import { createPoller } from "../poller.ts";
import { isTextError } from "../text-error.ts";
import type { AuditActor, AuditScope } from "./scope.ts";

export type AuditTarget = { type: string; id: string };

export type AuditRecord = {
  type: AuditEventType;
  target?: AuditTarget;
  details?: Record<string, unknown>;
  /** Who acted when it is not the request's caller: the user a sign-in or sign-up authenticates. */
  actor?: AuditActor;
};

export type AuditFilter = {
  type?: string;
  actorType?: string;
  actorId?: string;
  targetId?: string;
  /** Entries about a team: those whose details name it (`team_id`). */
  teamId?: string;
  from?: Date;
  to?: Date;
};

export type AuditCursor = { createdAt: Date; id: string };

type Row = typeof auditLog.$inferSelect;

/**
 * Details are small facts (method, reason, changed field names). A field whose name says it holds a credential is
 * dropped even if a caller passes one by mistake, so the log can never become a store of secrets.
 */
const SECRET_FIELD = /password|secret|token|hash|code|private/i;
const MAX_DETAIL_CHARS = 512;

export function cleanDetails(details: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (SECRET_FIELD.test(key) || value === undefined) continue;
    out[key] = typeof value === "string" ? value.slice(0, MAX_DETAIL_CHARS) : value;
  }
  return out;
}

export function auditEntryItem(row: Omit<Row, "id"> & { id: string }): AuditEntry {
  return {
    id: row.id,
    type: row.type,
    actor: { type: row.actorType, id: row.actorId },
    target: { type: row.targetType, id: row.targetId },
    ip: row.ip,
    user_agent: row.userAgent,
    request_id: row.requestId,
    created_at_millis: row.createdAt.getTime(),
    details: row.details,
  };
}

export const encodeCursor = (c: AuditCursor) => `${c.createdAt.getTime()}_${c.id}`;
export function decodeCursor(text: string): AuditCursor {
  const [millis, id] = text.split("_");
  return { createdAt: new Date(Number(millis)), id: id ?? "" };
}

const AUDIT_COLUMNS = Object.entries(getTableColumns(auditLog));

/** Joined to an entry's webhook event, so the event is written only when the project opts in. */
const auditWebhooksOn = (projectId: unknown) =>
  sql`join ${projects} on ${projects.id} = ${projectId} and ${projects.config} ->> 'audit_log_webhooks' = 'true'`;

/** The entry's and its webhook event's inserts following `made`, every value a placeholder (see `alongside`). */
function auditAlongside(made: SQL): SQL {
  const value = (key: string) => sql.placeholder(`audit_${key}`);
  const names = AUDIT_COLUMNS.map(([, column]) => sql.identifier(column.name));
  // Each cast to its column's type: a bare parameter in a select list is text.
  const entry = AUDIT_COLUMNS.map(([key, column]) => sql`${value(key)}::${sql.raw(column.getSQLType())}`);
  return sql`, audit_entry as (insert into ${auditLog} (${sql.join(names, sql`, `)})
      select ${sql.join(entry, sql`, `)} from ${made}),
    audit_event as (insert into ${webhookEvents} (id, project_id, type, data, created_at)
      select ${value("event_id")}::uuid, ${value("projectId")}, 'audit_log.entry_created', ${value("event")}::jsonb,
        ${value("createdAt")}::timestamptz
      from ${made} ${auditWebhooksOn(value("projectId"))})`;
}

export type AuditLogOptions = {
  db: Db;
  clock: Clock;
  scope: AuditScope;
  logger: Logger;
};

/** How often the pruner runs: retention is counted in days, so an hour late is immaterial. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows one prune statement deletes at most, so pruning never holds a long lock on a busy log. */
const PRUNE_BATCH = 10_000;

export function createAuditLog(deps: AuditLogOptions) {
  const where = (projectId: string, f: AuditFilter, cursor?: AuditCursor) =>
    and(
      eq(auditLog.projectId, projectId),
      f.type ? eq(auditLog.type, f.type) : undefined,
      f.actorType ? eq(auditLog.actorType, f.actorType) : undefined,
      f.actorId ? eq(auditLog.actorId, f.actorId) : undefined,
      f.targetId ? eq(auditLog.targetId, f.targetId) : undefined,
      // Both conditions, so the planner can use the partial index audit_log_project_team_idx.
      f.teamId
        ? sql`${auditLog.details} ? 'team_id' and ${auditLog.details} ->> 'team_id' = ${f.teamId}`
        : undefined,
      f.from ? gte(auditLog.createdAt, f.from) : undefined,
      f.to ? lt(auditLog.createdAt, f.to) : undefined,
      // A row comparison, so PostgreSQL continues the (…, created_at, id) index range where the last page ended.
      cursor
        ? sql`(${auditLog.createdAt}, ${auditLog.id}) < (${cursor.createdAt}, ${cursor.id}::uuid)`
        : undefined,
    );

  const page = (projectId: string, filter: AuditFilter, limit: number, cursor?: AuditCursor) =>
    deps.db
      .select()
      .from(auditLog)
      .where(where(projectId, filter, cursor))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit);

  /** The entries' rows: who acted, from where and when, from the request's scope unless a record names its actor. */
  const rowsOf = (projectId: string, records: AuditRecord[]): Row[] => {
    const scope = deps.scope.current();
    const createdAt = deps.clock.now();
    return records.map((r) => ({
      id: randomUUID(),
      projectId,
      type: r.type,
      actorType: (r.actor ?? scope.actor).type,
      actorId: (r.actor ?? scope.actor).id,
      targetType: r.target?.type ?? null,
      targetId: r.target?.id ?? null,
      ip: scope.ip,
      userAgent: scope.userAgent,
      requestId: scope.requestId,
      details: cleanDetails(r.details),
      createdAt,
    }));
  };

  /** The insert of the entries' opt-in webhook events: written only when the project's `audit_log_webhooks` is on. */
  const webhookEventsOf = (projectId: string, rows: Row[]) => {
    const events = rows.map(
      (row, n) => sql`(${randomUUID()}, ${JSON.stringify(auditEntryItem(row))}, ${n}::int)`,
    );
    const createdAt = rows[0]?.createdAt;
    return sql`insert into ${webhookEvents} (id, project_id, type, data, created_at)
      select e.id::uuid, ${projectId}, 'audit_log.entry_created', e.data::jsonb, ${createdAt}
      from (values ${sql.join(events, sql`, `)}) as e(id, data, n) ${auditWebhooksOn(projectId)}
      order by e.n`;
  };

  const log = {
    /** Records entries in the caller's transaction: they exist exactly when the change landed. */
    async record(tx: Db, projectId: string, ...records: AuditRecord[]): Promise<void> {
      if (records.length === 0) return;
      const rows = rowsOf(projectId, records);
      // One statement: the entries, and (in the same statement, a data-modifying WITH runs whether or not it is
      // read) their opt-in webhook events.
      await tx.execute(sql`
        with entries as ${tx.insert(auditLog).values(rows)}
        ${webhookEventsOf(projectId, rows)}`);
    },

    /**
     * The same entry as `record`, written by the statement that makes the change (sessions-repo's
     * `insertUnlessBanned`): common table expressions following the one named `made`, which write the entry and its
     * opt-in webhook event only when `made` has a row, so a change that was refused leaves no entry.
     */
    alongside(projectId: string, record: AuditRecord): Alongside {
      const [row] = rowsOf(projectId, [record]) as [Row];
      const values: Record<string, unknown> = {
        audit_event_id: randomUUID(),
        audit_event: JSON.stringify(auditEntryItem(row)),
      };
      for (const [key, column] of AUDIT_COLUMNS) {
        values[`audit_${key}`] = column.mapToDriverValue(row[key as keyof Row]);
      }
      return { name: "audit", build: auditAlongside, values };
    },

    /**
     * A failed sign-in has no change to join: the request answers an error and its transaction (if any) rolls
     * back, so the entry is its own small write.
     */
    recordFailure(projectId: string, record: AuditRecord): Promise<void> {
      return deps.db.transaction((tx) => log.record(tx, projectId, record));
    },

    /**
     * Runs a sign-in and records its failure, with the method and the reason (the known error's code, or the
     * plain-text answer). A paused sign-in waiting for its second factor has not failed.
     */
    async signInAttempt<T>(
      projectId: string,
      method: string,
      details: Record<string, unknown>,
      signIn: () => Promise<T>,
    ): Promise<T> {
      try {
        return await signIn();
      } catch (error) {
        const reason = isKnownError(error) ? error.code : isTextError(error) ? error.message : undefined;
        if (reason !== undefined && reason !== "MULTI_FACTOR_AUTHENTICATION_REQUIRED") {
          await log.recordFailure(projectId, {
            type: "sign_in.failed",
            details: { method, reason, ...details },
          });
        }
        throw error;
      }
    },

    /** One page, newest first; `next` names where the following page starts. */
    async list(
      projectId: string,
      filter: AuditFilter,
      limit: number,
      cursor?: AuditCursor,
    ): Promise<{ items: AuditEntry[]; next: string | null }> {
      const rows = await page(projectId, filter, limit + 1, cursor);
      const more = rows.length > limit;
      const kept = more ? rows.slice(0, limit) : rows;
      const last = kept.at(-1);
      return { items: kept.map(auditEntryItem), next: more && last ? encodeCursor(last) : null };
    },

    /** Every matching entry, newest first, read in pages so an export of millions holds little memory. */
    async *exportAll(projectId: string, filter: AuditFilter, batch = 1000): AsyncGenerator<AuditEntry> {
      let cursor: AuditCursor | undefined;
      for (;;) {
        const rows = await page(projectId, filter, batch, cursor);
        for (const row of rows) yield auditEntryItem(row);
        const last = rows.at(-1);
        if (rows.length < batch || !last) return;
        cursor = last;
      }
    },

    /**
     * Deletes the entries of every project with `audit_log_retention_days` that are older than that, a bounded
     * batch at a time (the (project_id, created_at, id) index finds them); answers how many went.
     */
    async prune(): Promise<number> {
      const now = deps.clock.now().getTime();
      const withRetention = await deps.db
        .select({ id: projects.id, days: sql<string>`${projects.config} ->> 'audit_log_retention_days'` })
        .from(projects)
        .where(sql`${projects.config} ->> 'audit_log_retention_days' is not null`);
      let total = 0;
      for (const project of withRetention) {
        const before = new Date(now - Number(project.days) * DAY_MS);
        for (;;) {
          const doomed = deps.db
            .select({ id: auditLog.id })
            .from(auditLog)
            .where(and(eq(auditLog.projectId, project.id), lt(auditLog.createdAt, before)))
            .limit(PRUNE_BATCH);
          const gone = await deps.db
            .delete(auditLog)
            .where(sql`${auditLog.id} in ${doomed}`)
            .returning({ id: auditLog.id });
          const count = gone.length;
          total += count;
          if (count < PRUNE_BATCH) break;
        }
      }
      return total;
    },
  };

  return {
    ...log,
    /** The background pruner (started by main beside the other workers). */
    pruner: createPoller({
      name: "audit log pruner",
      pollMs: PRUNE_EVERY_MS,
      logger: deps.logger,
      drain: async () => {
        await log.prune();
      },
    }),
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
