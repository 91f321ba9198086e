// oidc-provider's storage adapter on our database: one row per record (session, interaction, code, token, grant)
// in oidc_payloads, scoped to the project; clients come from oidc_clients. One adapter class per project.
/// <reference path="./oidc-provider.d.ts" />
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { oidcPayloads } from "../db/schema.ts";
import { providerRequestContext } from "./library.ts";

type Payload = Record<string, unknown> & {
  accountId?: string;
  clientId?: string;
  grantId?: string;
  uid?: string;
  consumed?: number;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ClientLookup = (
  projectId: string,
  clientId: string,
) => Promise<Record<string, unknown> | undefined>;

/** The adapter class oidc-provider instantiates per model name ("Session", "AccessToken", "Client", …). */
export function createAdapterClass(db: Db, clock: Clock, projectId: string, findClient: ClientLookup) {
  const live = () => or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, clock.now()));

  return class GatehouseAdapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }

    private key(id: string) {
      return and(
        eq(oidcPayloads.projectId, projectId),
        eq(oidcPayloads.model, this.model),
        eq(oidcPayloads.id, id),
      );
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(clock.now().getTime() + expiresIn * 1000) : null;
      // The account column ties the record to the user (ending their sessions ends it); only real user ids fit.
      const accountId =
        typeof payload.accountId === "string" && UUID.test(payload.accountId) ? payload.accountId : null;
      const row = {
        projectId,
        model: this.model,
        id,
        payload,
        accountId,
        clientId: typeof payload.clientId === "string" ? payload.clientId : null,
        grantId: typeof payload.grantId === "string" ? payload.grantId : null,
        uid: typeof payload.uid === "string" ? payload.uid : null,
        gatehouseSessionId: this.model === "Session" ? signedInFrom() : null,
        expiresAt,
        consumedAt: null,
      };
      await db
        .insert(oidcPayloads)
        .values(row)
        .onConflictDoUpdate({
          target: [oidcPayloads.projectId, oidcPayloads.model, oidcPayloads.id],
          set: {
            ...row,
            projectId: undefined,
            model: undefined,
            id: undefined,
            // Saves of the OP session outside a sign-in (a later authorization) keep its link.
            gatehouseSessionId: sql`coalesce(excluded.gatehouse_session_id, ${oidcPayloads.gatehouseSessionId})`,
          },
        });
    }

    async find(id: string): Promise<Payload | undefined> {
      if (this.model === "Client") return findClient(projectId, id);
      const [row] = await db
        .select()
        .from(oidcPayloads)
        .where(and(this.key(id), live()));
      return row ? withConsumed(row) : undefined;
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const [row] = await db
        .select()
        .from(oidcPayloads)
        .where(
          and(
            eq(oidcPayloads.projectId, projectId),
            eq(oidcPayloads.model, this.model),
            eq(oidcPayloads.uid, uid),
            live(),
          ),
        );
      return row ? withConsumed(row) : undefined;
    }

    /** Device flow only, which is not enabled. */
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await db.update(oidcPayloads).set({ consumedAt: clock.now() }).where(this.key(id));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcPayloads).where(this.key(id));
    }

    /** A reused code or refresh token revokes everything of its grant, whatever the model. */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.projectId, projectId), eq(oidcPayloads.grantId, grantId)));
    }
  };
}

/**
 * The Gatehouse session the request's sign-in came from: interactions.ts puts it in the login result, which
 * oidc-provider keeps on the request's context (Provider.ctx) while it saves the OP session.
 */
function signedInFrom(): string | null {
  const login = providerRequestContext()?.oidc?.result?.login as { gatehouseSessionId?: unknown } | undefined;
  const id = login?.gatehouseSessionId;
  return typeof id === "string" && UUID.test(id) ? id : null;
}

function withConsumed(row: typeof oidcPayloads.$inferSelect): Payload {
  const payload = row.payload as Payload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

/** Records past their expiry, for the periodic sweep. */
export async function sweepExpiredPayloads(db: Db, now: Date): Promise<void> {
  await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, now));
}

/** Ends everything a user holds at the project's OpenID Provider: OP sessions, grants, codes and tokens. */
export async function endUserGrants(
  db: Db,
  projectId: string,
  userId: string,
  clientId?: string,
): Promise<void> {
  await db
    .delete(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.projectId, projectId),
        eq(oidcPayloads.accountId, userId),
        clientId === undefined ? undefined : eq(oidcPayloads.clientId, clientId),
      ),
    );
}

/** Ends every grant, code and token a client holds (the client is being deleted). */
export async function endClientGrants(db: Db, projectId: string, clientId: string): Promise<void> {
  await db
    .delete(oidcPayloads)
    .where(and(eq(oidcPayloads.projectId, projectId), eq(oidcPayloads.clientId, clientId)));
}
