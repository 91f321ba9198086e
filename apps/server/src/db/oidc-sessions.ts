// [GO] Ending OP sessions (oidc-provider's Session records) when the Gatehouse session they came from ends: in the
// same transaction, each app the OP session signed in to gets a back-channel logout notice queued in oidc_payloads
// (model LogoutNotice), which oidc-provider/backchannel.ts sends after the commit and retries until it expires.
import { randomUUID } from "node:crypto";
import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "./client.ts";
import { oidcPayloads } from "./schema.ts";

export const LOGOUT_NOTICE = "LogoutNotice";
/** How long an app that cannot be reached is retried. */
const NOTICE_TTL_MS = 60 * 60 * 1000;

type Authorizations = Record<string, { sid?: string }>;

/** Ends the OP sessions matching `which` and queues a logout notice per app each had signed in to. */
export async function endOpSessions(tx: Db, which: SQL | undefined, now: Date): Promise<void> {
  const ended = await tx
    .delete(oidcPayloads)
    .where(and(eq(oidcPayloads.model, "Session"), which))
    .returning({ projectId: oidcPayloads.projectId, payload: oidcPayloads.payload });
  const notices = ended.flatMap(({ projectId, payload }) => {
    const sub = payload.accountId;
    if (typeof sub !== "string") return [];
    return Object.entries((payload.authorizations ?? {}) as Authorizations).map(([clientId, { sid }]) => ({
      projectId,
      model: LOGOUT_NOTICE,
      id: randomUUID(),
      // The user is named in the payload only: the account column would let the user's other cleanups drop it.
      payload: { sub, sid: sid ?? null },
      clientId,
      expiresAt: new Date(now.getTime() + NOTICE_TTL_MS),
    }));
  });
  if (notices.length > 0) await tx.insert(oidcPayloads).values(notices);
}
