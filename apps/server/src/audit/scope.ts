// Who is acting and from where, for the audit log: one mutable scope per request, opened by the app's first
// middleware (IP, user agent, request id) and completed by bindRoute once the caller is known (the actor).
// AsyncLocalStorage carries it to the services, so no service signature has to thread request details through.
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditActorType } from "@gatehouse/contract";

export type AuditActor = { type: AuditActorType; id: string | null };

export type AuditRequestScope = {
  actor: AuditActor;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
};

const SYSTEM: AuditRequestScope = {
  actor: { type: "system", id: null },
  ip: null,
  userAgent: null,
  requestId: null,
};

export function createAuditScope() {
  const storage = new AsyncLocalStorage<AuditRequestScope>();
  return {
    run<T>(scope: Omit<AuditRequestScope, "actor">, fn: () => T): T {
      return storage.run({ ...scope, actor: { type: "anonymous", id: null } }, fn);
    },
    /** Names the actor of the current request once its caller is resolved. */
    setActor(actor: AuditActor): void {
      const scope = storage.getStore();
      if (scope) scope.actor = actor;
    },
    /** Outside a request (workers, CLI, seeding) the actor is the system. */
    current(): AuditRequestScope {
      return storage.getStore() ?? SYSTEM;
    },
  };
}

export type AuditScope = ReturnType<typeof createAuditScope>;
