// The depth and oldest age of the work queues (e-mail outbox, webhook events not yet fanned out, webhook deliveries),
// read at scrape time: a queue that only grows, or whose oldest item only ages, is a stuck worker.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

export type QueueStats = { queue: string; depth: number; oldestAgeSeconds: number };

type Row = { queue: string; depth: number | string; oldest: Date | string | null };

/** One round trip; each part uses the partial index its worker claims with. */
export async function readQueueStats(db: Db, now: Date): Promise<QueueStats[]> {
  const result = await db.execute(sql`
    select 'email_outbox' as queue, count(*) as depth, min(created_at) as oldest
      from email_outbox where status = 'queued'
    union all
    select 'webhook_events', count(*), min(created_at) from webhook_events where dispatched_at is null
    union all
    select 'webhook_deliveries', count(*), min(created_at) from webhook_deliveries where status = 'pending'`);
  // pg answers { rows }, PGlite's drizzle driver the same shape.
  const rows = (result as unknown as { rows: Row[] }).rows;
  return rows.map((row) => ({
    queue: row.queue,
    depth: Number(row.depth),
    oldestAgeSeconds: row.oldest ? Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000) : 0,
  }));
}
