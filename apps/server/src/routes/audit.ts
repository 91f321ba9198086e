// Audit log routes (issue 21): a filtered page of the project's entries, and the same filter exported as NDJSON.
import { type AuditFilterQuery, exportAuditLogRoute, listAuditLogRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import { type AuditFilter, decodeCursor } from "../audit/log.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf } from "./auth.ts";

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

function filterOf(query: AuditFilterQuery): AuditFilter {
  return {
    type: query.type,
    actorType: query.actor_type,
    actorId: query.actor_id,
    targetId: query.target_id,
    teamId: query.team_id,
    from: query.from_millis ? new Date(Number(query.from_millis)) : undefined,
    to: query.to_millis ? new Date(Number(query.to_millis)) : undefined,
  };
}

export function registerAuditRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, listAuditLogRoute, async ({ query }, { caller }) => {
    const { limit, cursor, ...filters } = query;
    const size = Math.min(Math.max(Number(limit ?? DEFAULT_PAGE), 1), MAX_PAGE);
    const page = await deps.audit.list(
      projectOf(caller).id,
      filterOf(filters),
      size,
      cursor ? decodeCursor(cursor) : undefined,
    );
    return { items: page.items, is_paginated: true as const, pagination: { next_cursor: page.next } };
  });

  bindRoute(app, deps, exportAuditLogRoute, async ({ query }, { caller }) => {
    const entries = deps.audit.exportAll(projectOf(caller).id, filterOf(query));
    const encoder = new TextEncoder();
    // Streamed a page at a time: an export of millions of entries never sits in memory whole.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await entries.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      },
      async cancel() {
        await entries.return(undefined);
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": 'attachment; filename="audit-log.ndjson"',
      },
    });
  });
}
