// Webhook rows (WIRE.md §4.16): endpoints, the fan-out of recorded events into deliveries, claiming due deliveries,
// and the attempts log. Methods that run inside a caller's transaction take it as their first argument.
import { and, asc, desc, eq, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "./schema.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type EventRow = typeof webhookEvents.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDeliveryRow = typeof webhookDeliveries.$inferInsert;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type NewAttemptRow = typeof webhookAttempts.$inferInsert;
export type EndpointChanges = Partial<
  Pick<EndpointRow, "url" | "description" | "filterTypes" | "enabled" | "failingSince" | "updatedAt">
>;

export function createWebhooksRepo(db: Db) {
  const inProject = (projectId: string, endpointId: string) =>
    and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, endpointId));

  return {
    // Endpoints.

    listEndpoints(projectId: string): Promise<EndpointRow[]> {
      return db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.projectId, projectId))
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
    },

    async findEndpoint(projectId: string, endpointId: string): Promise<EndpointRow | undefined> {
      const [row] = await db.select().from(webhookEndpoints).where(inProject(projectId, endpointId));
      return row;
    },

    async insertEndpoint(row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
      const [created] = await db.insert(webhookEndpoints).values(row).returning();
      if (!created) throw new Error("Webhook endpoint insert returned no row");
      return created;
    },

    async updateEndpoint(
      projectId: string,
      endpointId: string,
      changes: EndpointChanges,
    ): Promise<EndpointRow | undefined> {
      const [row] = await db
        .update(webhookEndpoints)
        .set(changes)
        .where(inProject(projectId, endpointId))
        .returning();
      return row;
    },

    /** Replaces the secret; the one it replaces keeps signing beside it for a while (WIRE.md §4.16). */
    async rotateSecret(
      projectId: string,
      endpointId: string,
      sealedSecret: string,
      now: Date,
    ): Promise<EndpointRow | undefined> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({
          sealedSecret,
          sealedPreviousSecret: sql`${webhookEndpoints.sealedSecret}`,
          secretRotatedAt: now,
          updatedAt: now,
        })
        .where(inProject(projectId, endpointId))
        .returning();
      return row;
    },

    /** Its deliveries and attempts go with it (cascades). */
    async deleteEndpoint(projectId: string, endpointId: string): Promise<boolean> {
      const deleted = await db
        .delete(webhookEndpoints)
        .where(inProject(projectId, endpointId))
        .returning({ id: webhookEndpoints.id });
      return deleted.length > 0;
    },

    async endpointsByIds(ids: string[]): Promise<EndpointRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, ids));
    },

    /**
     * Notes a failed attempt: the endpoint's run of failures starts now unless it already runs, and an endpoint
     * whose run began at or before `disableIfFailingSince` is disabled. Answers whether this call disabled it.
     */
    async recordEndpointFailure(
      tx: Db,
      endpointId: string,
      now: Date,
      disableIfFailingSince: Date,
    ): Promise<boolean> {
      const since = sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)`;
      const [row] = await tx
        .update(webhookEndpoints)
        .set({ failingSince: since })
        .where(eq(webhookEndpoints.id, endpointId))
        .returning({ failingSince: webhookEndpoints.failingSince, enabled: webhookEndpoints.enabled });
      if (!row?.enabled || !row.failingSince || row.failingSince > disableIfFailingSince) return false;
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, updatedAt: now })
        .where(eq(webhookEndpoints.id, endpointId));
      return true;
    },

    /** A success ends the endpoint's run of failures. */
    async recordEndpointSuccess(tx: Db, endpointId: string): Promise<void> {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.failingSince} is not null`));
    },

    // Events and their fan-out.

    /**
     * The oldest events not yet fanned out, locked for the caller's transaction; SKIP LOCKED lets another process
     * take the next ones meanwhile.
     */
    takeUndispatched(tx: Db, limit: number): Promise<EventRow[]> {
      return tx
        .select()
        .from(webhookEvents)
        .where(isNull(webhookEvents.dispatchedAt))
        .orderBy(asc(webhookEvents.seq))
        .limit(limit)
        .for("update", { skipLocked: true });
    },

    /** The oldest events not yet fanned out, without a lock (forwarding to Svix, which dedupes by event id). */
    listUndispatched(limit: number): Promise<EventRow[]> {
      return db
        .select()
        .from(webhookEvents)
        .where(isNull(webhookEvents.dispatchedAt))
        .orderBy(asc(webhookEvents.seq))
        .limit(limit);
    },

    enabledEndpointsOf(tx: Db, projectIds: string[]): Promise<EndpointRow[]> {
      if (projectIds.length === 0) return Promise.resolve([]);
      return tx
        .select()
        .from(webhookEndpoints)
        .where(and(inArray(webhookEndpoints.projectId, projectIds), eq(webhookEndpoints.enabled, true)));
    },

    async insertDeliveries(tx: Db, rows: NewDeliveryRow[]): Promise<void> {
      if (rows.length === 0) return;
      await tx.insert(webhookDeliveries).values(rows).onConflictDoNothing();
    },

    async markDispatched(executor: Db, eventIds: string[], now: Date): Promise<void> {
      if (eventIds.length === 0) return;
      await executor
        .update(webhookEvents)
        .set({ dispatchedAt: now })
        .where(and(inArray(webhookEvents.id, eventIds), isNull(webhookEvents.dispatchedAt)));
    },

    // Deliveries.

    /**
     * Claims up to `limit` due deliveries and pushes their next attempt to `leaseUntil`. One statement, so one short
     * transaction: SKIP LOCKED lets several processes claim side by side without taking the same rows, and a
     * process that dies mid-send leaves rows that become due again when the lease runs out, so nothing is lost.
     */
    claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DeliveryRow[]> {
      const due = db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)))
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(limit)
        .for("update", { skipLocked: true });
      return db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: leaseUntil })
        .where(and(inArray(webhookDeliveries.id, due), eq(webhookDeliveries.status, "pending")))
        .returning();
    },

    /** Settles one attempt of a delivery still pending (a delivery settled meanwhile stays as it is). */
    async settleDelivery(
      executor: Db,
      id: string,
      changes: Pick<DeliveryRow, "status" | "attempts" | "nextAttemptAt">,
    ): Promise<void> {
      await executor
        .update(webhookDeliveries)
        .set(changes)
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending")));
    },

    async findDelivery(id: string): Promise<DeliveryRow | undefined> {
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      return row;
    },

    // Attempts.

    async insertAttempt(executor: Db, row: NewAttemptRow): Promise<AttemptRow> {
      const [created] = await executor.insert(webhookAttempts).values(row).returning();
      if (!created) throw new Error("Webhook attempt insert returned no row");
      return created;
    },

    /** The endpoint's latest attempts, newest first. */
    listAttempts(endpointId: string, limit: number): Promise<AttemptRow[]> {
      return db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.endpointId, endpointId))
        .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.attemptNumber))
        .limit(limit);
    },

    async purgeAttempts(before: Date): Promise<number> {
      const purged = await db
        .delete(webhookAttempts)
        .where(lt(webhookAttempts.attemptedAt, before))
        .returning({ id: webhookAttempts.id });
      return purged.length;
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
