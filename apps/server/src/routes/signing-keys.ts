// [GO] Signing keys of the caller's project (issue 23): the published keys with their state, and a rotation in one
// transaction (the service publishes, retires, and tells other processes through the change feed).
import { listSigningKeysRoute, rotateSigningKeysRoute, type SigningKeyView } from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { PublishedKey } from "../services/signing-keys.ts";
import { projectOf } from "./auth.ts";

const toView = (key: PublishedKey): SigningKeyView => ({
  kid: key.kid,
  audience: key.audience,
  state: key.state,
  created_at_millis: key.createdAt.getTime(),
  signs_from_millis: key.signsFrom.getTime(),
});

export function registerSigningKeyRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, listSigningKeysRoute, async (_input, { caller }) => ({
    items: (await deps.signingKeys.describe(projectOf(caller).id)).map(toView),
  }));

  bindRoute(app, deps, rotateSigningKeysRoute, async (_input, { caller }) => {
    const projectId = projectOf(caller).id;
    const keys = await inTransaction(deps.db, async (tx) => {
      await deps.signingKeys.rotate(tx, projectId);
      return deps.signingKeys.describe(projectId, tx);
    });
    return { items: keys.map(toView) };
  });
}
