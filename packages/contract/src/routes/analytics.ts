// Browser analytics as Stack's SDK sends them: batches of page views and clicks (stored, counted on the overview),
// and session replays, which Stack keeps in an outside store: Gatehouse answers as Stack does without that store.
import { z } from "zod";
import { defineRoute } from "../route.ts";

const CLIENT_OR_HIGHER = ["client", "server", "admin"] as const;
const uuid = z.uuid();
const millis = z.number().int().nonnegative();

/** At most this many events per batch, as Stack's backend (its tracker flushes at 50). */
export const MAX_ANALYTICS_EVENTS_PER_BATCH = 500;

export const ANALYTICS_EVENT_TYPES = ["$page-view", "$click"] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

export const analyticsEventBatchSchema = z.strictObject({
  session_replay_segment_id: uuid,
  batch_id: uuid,
  sent_at_ms: millis,
  events: z
    .array(
      z.strictObject({
        event_type: z.enum(ANALYTICS_EVENT_TYPES),
        event_at_ms: millis,
        // What the tracker saw (URL, title, viewport; for clicks the element): any JSON value, kept as sent.
        data: z.json(),
      }),
    )
    .min(1)
    .max(MAX_ANALYTICS_EVENTS_PER_BATCH),
});

export type AnalyticsEventBatch = z.output<typeof analyticsEventBatchSchema>;

export const analyticsEventBatchRoute = defineRoute({
  method: "POST",
  path: "/api/v1/analytics/events/batch",
  access: CLIENT_OR_HIGHER,
  summary:
    "Stores a batch of page views and clicks from Stack's browser event tracker (JSON, or gzipped JSON as application/octet-stream)",
  tag: "Analytics",
  body: analyticsEventBatchSchema,
  response: { status: 200, kind: "json", schema: z.object({ inserted: z.number().int().nonnegative() }) },
});

export const sessionReplayBatchRoute = defineRoute({
  method: "POST",
  path: "/api/v1/session-replays/batch",
  access: CLIENT_OR_HIGHER,
  summary:
    "Session replays are not available (Stack keeps them in an outside store): `ANALYTICS_NOT_ENABLED`",
  tag: "Analytics",
  body: z.unknown(),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: z.never() },
});

const replayParams = z.strictObject({ session_replay_id: z.string().min(1).max(256) });
const pageQuery = { cursor: z.string().max(256).optional(), limit: z.string().max(32).optional() };

export const sessionReplayListSchema = z.object({
  items: z.array(z.never()),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});

export const listSessionReplaysRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/session-replays",
  access: ["admin"],
  summary: "The project's session replays: always none, since none are recorded",
  tag: "Analytics",
  query: z.strictObject({
    ...pageQuery,
    user_ids: z.string().max(8192).optional(),
    team_ids: z.string().max(8192).optional(),
    duration_ms_min: z.string().max(32).optional(),
    duration_ms_max: z.string().max(32).optional(),
    last_event_at_from_millis: z.string().max(32).optional(),
    last_event_at_to_millis: z.string().max(32).optional(),
    click_count_min: z.string().max(32).optional(),
  }),
  response: { status: 200, kind: "json", schema: sessionReplayListSchema },
});

/** The reads of one replay: none exists, so each answers `ITEM_NOT_FOUND` as Stack does for an unknown id. */
const replayRead = {
  method: "GET",
  access: ["admin"],
  tag: "Analytics",
  params: replayParams,
  response: { status: 200, kind: "json", schema: z.never() },
} as const;

export const getSessionReplayRoute = defineRoute({
  ...replayRead,
  path: "/api/v1/internal/session-replays/{session_replay_id}",
  summary: "A session replay: `ITEM_NOT_FOUND`, since none are recorded",
});

export const listSessionReplayChunksRoute = defineRoute({
  ...replayRead,
  path: "/api/v1/internal/session-replays/{session_replay_id}/chunks",
  summary: "A session replay's chunks: `ITEM_NOT_FOUND`, since none are recorded",
  query: z.strictObject(pageQuery),
});

export const getSessionReplayEventsRoute = defineRoute({
  ...replayRead,
  path: "/api/v1/internal/session-replays/{session_replay_id}/events",
  summary: "A session replay's events: `ITEM_NOT_FOUND`, since none are recorded",
  query: z.strictObject({ offset: z.string().max(32).optional(), limit: z.string().max(32).optional() }),
});

export const getSessionReplayChunkEventsRoute = defineRoute({
  ...replayRead,
  path: "/api/v1/internal/session-replays/{session_replay_id}/chunks/{chunk_id}/events",
  summary: "A session replay chunk's events: `ITEM_NOT_FOUND`, since none are recorded",
  params: replayParams.extend({ chunk_id: z.string().min(1).max(256) }),
});

export const analyticsRoutes = [
  analyticsEventBatchRoute,
  sessionReplayBatchRoute,
  listSessionReplaysRoute,
  getSessionReplayRoute,
  listSessionReplayChunksRoute,
  getSessionReplayEventsRoute,
  getSessionReplayChunkEventsRoute,
] as const;
