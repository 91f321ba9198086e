// [GO] Impersonation on the client side: whether the current session is one an administrator opened for the user
// (POST /auth/sessions with is_impersonation; the server lists it to its holder only), and the hand-over of such a
// session from the dashboard to the app: its tokens travel in the fragment of a link to the app's impersonation page.
import type { ObjectContext } from "./context.ts";
import type { List, SessionJson } from "./wire.ts";

export type SessionTokens = { accessToken: string; refreshToken: string };

/** True when the session `ctx` acts with is an impersonation (one extra request: the session list). */
export async function isImpersonationSession(ctx: Pick<ObjectContext, "request">): Promise<boolean> {
  const list = await ctx.request<List<SessionJson>>("/auth/sessions", { query: { user_id: "me" } });
  return list.items.some((session) => session.is_current_session && session.is_impersonation);
}

/**
 * The link that opens an app's impersonation page (`{handler}/impersonation`) with the session's tokens. They go in
 * the fragment, which the browser never sends to a server, so they reach no access log and no Referer header.
 */
export function impersonationLink(pageUrl: string, tokens: SessionTokens): string {
  const fragment = new URLSearchParams({
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
  });
  return `${pageUrl.replace(/#.*$/, "")}#${fragment}`;
}

/** The tokens in the fragment of an impersonation link, or null when it holds none. */
export function readImpersonationLink(href: string): SessionTokens | null {
  const fragment = new URLSearchParams(new URL(href).hash.slice(1));
  const accessToken = fragment.get("access_token");
  const refreshToken = fragment.get("refresh_token");
  return accessToken && refreshToken ? { accessToken, refreshToken } : null;
}
