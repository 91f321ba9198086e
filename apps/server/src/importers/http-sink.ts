// Writes import records through a running server's bulk endpoint (POST /api/v1/internal/imports/users): a batch of
// users per request, written by the server in one transaction. The server finds users imported before by their
// source id, so a re-run (or a resumed run that repeats its last batch) answers them as existing.
import type { ImportBatchAnswer } from "@gatehouse/contract";
import type { ApiClient } from "../cli/api-client.ts";
import type { ImportUser } from "./record.ts";

export type WriteResult =
  | { result: "created"; id: string }
  | { result: "exists" }
  | { result: "failed"; reason: string };

/** Writes a batch; answers one result per user, in order. */
export type Sink = { writeBatch(users: ImportUser[]): Promise<WriteResult[]> };

export function httpSink(api: ApiClient, provider: string): Sink {
  return {
    async writeBatch(users) {
      const answer = await api<ImportBatchAnswer>("POST", "/internal/imports/users", { provider, users });
      return answer.items.map((item): WriteResult => {
        if (item.result === "created") return { result: "created", id: item.user_id ?? "" };
        if (item.result === "existing") return { result: "exists" };
        return { result: "failed", reason: item.reason ?? "not imported" };
      });
    },
  };
}
