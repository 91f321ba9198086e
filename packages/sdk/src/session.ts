// A user's session on the client (WIRE.md §3.6): hands out an access token, refreshing it when 20 s or less remain
// or when the server called it invalid, one refresh at a time however many calls wait. A refused refresh token signs
// the user out; a refresh that fails on the network throws and keeps the tokens. The tokens live in a TokenStore.

import type { TokenStore } from "./token-store.ts";

/** What the refresh grant answered: new tokens, or "refused" (REFRESH_TOKEN_ERROR: the session is over). */
export type RefreshResult = { accessToken: string; refreshToken?: string } | "refused";

export type SessionOptions = {
  store: TokenStore;
  now?: () => number;
  refresh: (refreshToken: string) => Promise<RefreshResult>;
  /** Refresh this long before expiry (read from the JWT `exp`, no signature check). */
  refreshMarginMs?: number;
};

/** Satisfies transport.ts's AccessTokenSource (getAccessToken, getRefreshToken, markAccessTokenExpired). */
export type Session = {
  /** A usable access token (refreshing first when it is about to expire), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  getRefreshToken(): string | null;
  /** The server called this token invalid: forget it (if still current) so the next getAccessToken refreshes. */
  markAccessTokenExpired(accessToken: string): void;
  /** Signed in = a refresh token is stored. */
  isSignedIn(): boolean;
  signIn(tokens: { accessToken: string; refreshToken: string }): void;
  /** Clears both tokens (ending the session on the server is the caller's call). */
  signOut(): void;
  /** Fires when the tokens change, including when a refused refresh signs the user out. */
  subscribe(listener: () => void): () => void;
};

/** WIRE.md §3.6: the SDK reuses an access token only while more than 20 s remain. */
const DEFAULT_REFRESH_MARGIN_MS = 20_000;

/** The payload of a JWT, decoded without checking the signature (null when it is not a JWT). */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split(".")[1];
  if (!part) return null;
  try {
    const bytes = Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === "object" && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function createSession(options: SessionOptions): Session {
  const { store, refresh, now = Date.now, refreshMarginMs = DEFAULT_REFRESH_MARGIN_MS } = options;
  /** The refresh under way, shared by every caller asking for the same refresh token meanwhile. */
  let pending: { refreshToken: string; result: Promise<string | null> } | null = null;

  const isFresh = (accessToken: string) => {
    const exp = decodeJwtPayload(accessToken)?.exp;
    return typeof exp === "number" && exp * 1000 - now() > refreshMarginMs;
  };

  async function getAccessToken(): Promise<string | null> {
    const { accessToken, refreshToken } = store.get();
    if (accessToken !== null && isFresh(accessToken)) return accessToken;
    if (refreshToken === null) return null;
    if (pending?.refreshToken === refreshToken) return pending.result;
    const result = runRefresh(refreshToken).finally(() => {
      if (pending?.result === result) pending = null;
    });
    pending = { refreshToken, result };
    return result;
  }

  async function runRefresh(refreshToken: string): Promise<string | null> {
    const result = await refresh(refreshToken);
    // Signed out, or in again (here or, through cookies, in another tab), while the refresh ran: its answer is stale.
    if (store.get().refreshToken !== refreshToken) return getAccessToken();
    if (result === "refused") {
      store.set({ accessToken: null, refreshToken: null });
      return null;
    }
    // Under rotation (WIRE.md §3.4) the answer carries a new refresh token, which replaces the old one.
    store.set({ accessToken: result.accessToken, refreshToken: result.refreshToken ?? refreshToken });
    return result.accessToken;
  }

  return {
    getAccessToken,
    getRefreshToken: () => store.get().refreshToken,
    markAccessTokenExpired(accessToken) {
      const tokens = store.get();
      if (tokens.accessToken === accessToken) store.set({ ...tokens, accessToken: null });
    },
    isSignedIn: () => store.get().refreshToken !== null,
    signIn(tokens) {
      if (!tokens || typeof tokens.accessToken !== "string" || typeof tokens.refreshToken !== "string") {
        throw new Error("Signing in with tokens needs both accessToken and refreshToken.");
      }
      store.set({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
    },
    signOut: () => store.set({ accessToken: null, refreshToken: null }),
    subscribe: (listener) => store.subscribe(listener),
  };
}
