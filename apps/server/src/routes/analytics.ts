// Stack's browser analytics: event batches are stored (analytics/), session replays answer as Stack's backend
// does where its outside replay store is not set up.
import {
  analyticsEventBatchRoute,
  getSessionReplayChunkEventsRoute,
  getSessionReplayEventsRoute,
  getSessionReplayRoute,
  KnownErrors,
  listSessionReplayChunksRoute,
  listSessionReplaysRoute,
  sessionReplayBatchRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { decodeBatchRequest } from "../analytics/batch-body.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute, toHonoPath } from "../http/bind.ts";
import { projectOf } from "./auth.ts";

export function registerAnalyticsRoutes(app: Hono<AppEnv>, deps: Deps): void {
  // Before the bound route reads the body: a gzipped batch becomes the JSON request it stands for.
  app.post(toHonoPath(analyticsEventBatchRoute.path), async (c, next) => {
    c.req.raw = await decodeBatchRequest(c.req.raw);
    await next();
  });
  bindRoute(app, deps, analyticsEventBatchRoute, async ({ body }, { caller }) => {
    const sender = {
      projectId: projectOf(caller).id,
      userId: caller.user?.id ?? null,
      sessionId: caller.user?.sessionId ?? null,
    };
    return { inserted: await deps.analytics.record(sender, body) };
  });

  // Stack checks the access type, then answers this for a project without its analytics app (replays).
  bindRoute(app, deps, sessionReplayBatchRoute, async () => {
    throw KnownErrors.ANALYTICS_NOT_ENABLED();
  });

  // No replay is ever recorded: the list is empty, and every id (a cursor's too) is unknown, as in Stack.
  bindRoute(app, deps, listSessionReplaysRoute, async ({ query }) => {
    if (query.cursor) throw KnownErrors.ITEM_NOT_FOUND({ item_id: query.cursor });
    return { items: [], pagination: { next_cursor: null } };
  });
  for (const route of [getSessionReplayRoute, listSessionReplayChunksRoute, getSessionReplayEventsRoute]) {
    bindRoute(app, deps, route, async ({ params }) => {
      throw KnownErrors.ITEM_NOT_FOUND({ item_id: params.session_replay_id });
    });
  }
  bindRoute(app, deps, getSessionReplayChunkEventsRoute, async ({ params }) => {
    throw KnownErrors.ITEM_NOT_FOUND({ item_id: params.chunk_id });
  });
}
