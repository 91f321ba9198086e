// [GO] Back-channel logout (OpenID Connect Back-Channel Logout 1.0) for OP sessions ended by Gatehouse: the notices
// db/oidc-sessions.ts queued with the session's end are sent here, one logout_token per app, by a background poll.
// Sent notices are deleted; an app that fails is tried again a minute later until the notice expires (an hour).
import { and, asc, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { LOGOUT_NOTICE } from "../db/oidc-sessions.ts";
import { oidcPayloads } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { createPoller } from "../poller.ts";
import { sweepExpiredPayloads } from "./adapter.ts";
import type { Provider } from "./provider.ts";

const BATCH = 50;
const RETRY_AFTER_MS = 60 * 1000;
/** Sign-outs reach apps within this; expired provider records are swept as often. */
const POLL_MS = 5 * 1000;

type Deps = {
  db: Db;
  clock: Clock;
  logger: Logger;
  providerFor: (projectId: string) => Promise<Provider>;
};

export function createBackchannelSender(deps: Deps) {
  const { db, clock } = deps;

  /** One batch of the notices due now: how many were handled, and how many of those went to an app. */
  async function batch(): Promise<{ handled: number; sent: number }> {
    const now = clock.now();
    const due = await db
      .select()
      .from(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.model, LOGOUT_NOTICE),
          gt(oidcPayloads.expiresAt, now),
          // consumed_at marks the last failed try.
          or(
            isNull(oidcPayloads.consumedAt),
            lt(oidcPayloads.consumedAt, new Date(now.getTime() - RETRY_AFTER_MS)),
          ),
        ),
      )
      .orderBy(asc(oidcPayloads.expiresAt))
      .limit(BATCH);
    let sent = 0;
    for (const notice of due) {
      const key = and(
        eq(oidcPayloads.projectId, notice.projectId),
        eq(oidcPayloads.model, LOGOUT_NOTICE),
        eq(oidcPayloads.id, notice.id),
      );
      const { sub, sid } = notice.payload as { sub: string; sid: string | null };
      try {
        const provider = await deps.providerFor(notice.projectId);
        const client = notice.clientId ? await provider.Client.find(notice.clientId) : undefined;
        // A client deleted, or without a back-channel URI: nobody to tell.
        if (client?.backchannelLogoutUri) {
          await client.backchannelLogout(sub, sid ?? undefined);
          sent++;
        }
        await db.delete(oidcPayloads).where(key);
      } catch (error) {
        await db.update(oidcPayloads).set({ consumedAt: now }).where(key);
        deps.logger.warn("back-channel logout failed", { project_id: notice.projectId }, error);
      }
    }
    return { handled: due.length, sent };
  }

  /** Sends the notices due now; answers how many logout tokens apps accepted. */
  async function sendDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const done = await batch();
      sent += done.sent;
      if (done.handled < BATCH) return sent;
    }
  }

  return {
    sendDue,
    /** The background poll (started by main): back-channel notices, then expired provider records. */
    worker: createPoller({
      name: "OpenID Provider back-channel logout and sweep",
      pollMs: POLL_MS,
      logger: deps.logger,
      drain: async () => {
        await sendDue();
        await sweepExpiredPayloads(db, clock.now());
      },
    }),
  };
}
