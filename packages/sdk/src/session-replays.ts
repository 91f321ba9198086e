// Session replays on the admin app (Stack's listSessionReplays and its reads): Stack records them in an outside
// store; a Gatehouse server records none, so the list is empty and any id is ITEM_NOT_FOUND, as Stack answers.
import type { RequestOptions } from "./transport.ts";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

export type AdminSessionReplay = {
  id: string;
  projectUser: { id: string; displayName: string | null; primaryEmail: string | null };
  startedAt: Date;
  lastEventAt: Date;
  chunkCount: number;
  eventCount: number;
};

export type AdminSessionReplayChunk = {
  id: string;
  batchId: string;
  sessionReplaySegmentId: string | null;
  browserSessionId: string | null;
  eventCount: number;
  byteLength: number;
  firstEventAt: Date;
  lastEventAt: Date;
  createdAt: Date;
};

export type ListSessionReplaysOptions = {
  cursor?: string;
  limit?: number;
  userIds?: string[];
  teamIds?: string[];
  durationMsMin?: number;
  durationMsMax?: number;
  lastEventAtFromMillis?: number;
  lastEventAtToMillis?: number;
  clickCountMin?: number;
};

type ReplayJson = {
  id: string;
  project_user: { id: string; display_name: string | null; primary_email: string | null };
  started_at_millis: number;
  last_event_at_millis: number;
  chunk_count: number;
  event_count: number;
};
type ChunkJson = {
  id: string;
  batch_id: string;
  session_replay_segment_id: string | null;
  browser_session_id?: string | null;
  event_count: number;
  byte_length: number;
  first_event_at_millis: number;
  last_event_at_millis: number;
  created_at_millis: number;
};
type Page<T> = { items: T[]; pagination: { next_cursor: string | null } };

const replayOf = (r: ReplayJson): AdminSessionReplay => ({
  id: r.id,
  projectUser: {
    id: r.project_user.id,
    displayName: r.project_user.display_name,
    primaryEmail: r.project_user.primary_email,
  },
  startedAt: new Date(r.started_at_millis),
  lastEventAt: new Date(r.last_event_at_millis),
  chunkCount: r.chunk_count,
  eventCount: r.event_count,
});

const chunkOf = (c: ChunkJson): AdminSessionReplayChunk => ({
  id: c.id,
  batchId: c.batch_id,
  sessionReplaySegmentId: c.session_replay_segment_id,
  browserSessionId: c.browser_session_id ?? null,
  eventCount: c.event_count,
  byteLength: c.byte_length,
  firstEventAt: new Date(c.first_event_at_millis),
  lastEventAt: new Date(c.last_event_at_millis),
  createdAt: new Date(c.created_at_millis),
});

const replayPath = (id: string) => `/internal/session-replays/${encodeURIComponent(id)}`;
const csv = (ids: string[] | undefined) => (ids && ids.length > 0 ? ids.join(",") : undefined);

export function sessionReplayCalls(request: Request) {
  return {
    async listSessionReplays(options: ListSessionReplaysOptions = {}) {
      const page = await request<Page<ReplayJson>>("/internal/session-replays", {
        query: {
          cursor: options.cursor,
          limit: options.limit,
          user_ids: csv(options.userIds),
          team_ids: csv(options.teamIds),
          duration_ms_min: options.durationMsMin,
          duration_ms_max: options.durationMsMax,
          last_event_at_from_millis: options.lastEventAtFromMillis,
          last_event_at_to_millis: options.lastEventAtToMillis,
          click_count_min: options.clickCountMin,
        },
      });
      return { items: page.items.map(replayOf), nextCursor: page.pagination.next_cursor };
    },
    async getSessionReplay(sessionReplayId: string): Promise<AdminSessionReplay> {
      return replayOf(await request<ReplayJson>(replayPath(sessionReplayId)));
    },
    async listSessionReplayChunks(
      sessionReplayId: string,
      options: { cursor?: string; limit?: number } = {},
    ) {
      const page = await request<Page<ChunkJson>>(`${replayPath(sessionReplayId)}/chunks`, {
        query: options,
      });
      return { items: page.items.map(chunkOf), nextCursor: page.pagination.next_cursor };
    },
    async getSessionReplayChunkEvents(sessionReplayId: string, chunkId: string) {
      return request<{ events: unknown[] }>(
        `${replayPath(sessionReplayId)}/chunks/${encodeURIComponent(chunkId)}/events`,
      );
    },
    async getSessionReplayEvents(sessionReplayId: string, options: { offset?: number; limit?: number } = {}) {
      const answer = await request<{
        chunks: ChunkJson[];
        chunk_events: { chunk_id: string; events: unknown[] }[];
      }>(`${replayPath(sessionReplayId)}/events`, { query: options });
      return {
        chunks: answer.chunks.map(chunkOf),
        chunkEvents: answer.chunk_events.map((e) => ({ chunkId: e.chunk_id, events: e.events })),
      };
    },
  };
}
