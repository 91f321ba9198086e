// Analytics events from Stack's browser tracker: a batch is stored with who sent it, events older than the
// retention period are pruned by a background poller, and the overview counts page views and active users.
import type { AnalyticsEventBatch } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import { createPoller } from "../poller.ts";
import type { AnalyticsEventsRepo } from "./events-repo.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the pruner runs: retention is counted in days, so an hour late is immaterial. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const DEFAULT_ANALYTICS_RETENTION_DAYS = 30;

/** Who sent a batch, as the access token says: the user and their session, when signed in. */
export type AnalyticsSender = { projectId: string; userId: string | null; sessionId: string | null };

export type AnalyticsOverview = {
  retention_days: number;
  daily_page_views: { date: string; count: number }[];
  daily_active_users: number;
  monthly_active_users: number;
};

export function createAnalyticsService(deps: {
  repo: AnalyticsEventsRepo;
  clock: Clock;
  logger: Logger;
  retentionDays?: number;
}) {
  const retentionDays = deps.retentionDays ?? DEFAULT_ANALYTICS_RETENTION_DAYS;

  /** Deletes every event received before the retention period, one bounded batch after another. */
  async function prune(): Promise<number> {
    const before = new Date(deps.clock.now().getTime() - retentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const deleted = await deps.repo.pruneBefore(before);
      total += deleted;
      if (deleted === 0) return total;
    }
  }

  return {
    retentionDays,

    async record(sender: AnalyticsSender, batch: AnalyticsEventBatch): Promise<number> {
      // Receipt time by the injected clock (not the database's `now()`), which retention and the counts rely on.
      const createdAt = deps.clock.now();
      await deps.repo.insertMany(
        batch.events.map((event) => ({
          projectId: sender.projectId,
          userId: sender.userId,
          sessionId: sender.sessionId,
          eventType: event.event_type,
          data: event.data,
          batchId: batch.batch_id,
          segmentId: batch.session_replay_segment_id,
          eventAt: new Date(event.event_at_ms),
          createdAt,
        })),
      );
      return batch.events.length;
    },

    prune,

    /** The background pruner (started by main beside the other workers). */
    pruner: createPoller({
      name: "analytics pruner",
      pollMs: PRUNE_EVERY_MS,
      logger: deps.logger,
      drain: async () => {
        await prune();
      },
    }),

    /**
     * Page views per UTC day over the `days` days ending today (oldest first, empty days as 0) and the distinct
     * users (anonymous ones included: the tracker signs visitors in anonymously) seen in the last 24 hours and
     * over those days. Only what retention kept is counted.
     */
    async overview(projectId: string, days: number): Promise<AnalyticsOverview> {
      const now = deps.clock.now();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const tomorrow = new Date(today + DAY_MS);
      const first = new Date(tomorrow.getTime() - days * DAY_MS);
      const found = await deps.repo.overview(projectId, first, tomorrow, new Date(now.getTime() - DAY_MS));
      const counts = new Map(found.pageViewsByDay.map((d) => [d.date, d.count]));
      return {
        retention_days: retentionDays,
        daily_page_views: Array.from({ length: days }, (_, i) => {
          const date = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
          return { date, count: counts.get(date) ?? 0 };
        }),
        daily_active_users: found.activeUsers.daily,
        monthly_active_users: found.activeUsers.monthly,
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
