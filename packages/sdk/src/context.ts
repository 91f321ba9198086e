// What the objects an app hands out (users, teams, contact channels…) need from the app: authenticated requests on
// the session they were read with, the handler URLs for callback links, and a way to say "what you read is stale".
import type { RequestOptions } from "./transport.ts";
import type { HandlerUrls } from "./urls.ts";

export type ObjectContext = {
  /** A request with the app's keys and, for client objects, the session the object was read with. */
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** Absolute URL of a handler page, for links in e-mails (verification, invitation, reset). */
  callbackUrl(name: keyof HandlerUrls): string;
  /** Cached reads that a write made stale are read again on their next use. */
  invalidate(): void;
};

export const jsonBody = (body: unknown): RequestOptions => ({ method: "POST", body });
export const patch = (body: unknown): RequestOptions => ({ method: "PATCH", body });
export const del: RequestOptions = { method: "DELETE", body: {} };

/** `{a: 1, b: undefined}` → `{a: 1}`: unset options are not sent (the server would read `undefined` as absent anyway). */
export function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
