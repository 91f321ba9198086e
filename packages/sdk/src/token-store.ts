// Where the SDK keeps a user's tokens: in memory, in browser cookies (WIRE.md §3.6: the same names and formats as
// Stack Auth's SDK, so both SDKs can share a browser), in a server request's cookies or `x-stack-auth` header, or
// given explicitly. Every store is a value plus listeners told when it changes.
import { encodeCookieValue, parseCookies } from "./cookies.ts";

export type Tokens = { accessToken: string | null; refreshToken: string | null };

export interface TokenStore {
  get(): Tokens;
  /** A null token clears that token. */
  set(tokens: Tokens): void;
  subscribe(listener: () => void): () => void;
}

/** Anything with request headers: a fetch `Request`, a Node `IncomingMessage`, or a plain object. */
export type RequestLike = {
  headers: Headers | Record<string, string | undefined> | { get(name: string): string | null };
};

/** What an app's `tokenStore` option accepts (null or undefined: no store). */
export type TokenStoreInit =
  | "cookie"
  | "memory"
  | { accessToken: string; refreshToken: string }
  | RequestLike
  | null
  | undefined;

export type CookieTokenStoreOptions = {
  projectId: string;
  /** Anything with a `document.cookie` getter and setter; the browser's by default. */
  document?: { cookie: string };
  /** Secure cookies with the `__Host-` prefix; by default when the page is served over https. */
  secure?: boolean;
  now?: () => number;
  setInterval?(callback: () => void, ms: number): unknown;
  clearInterval?(handle: unknown): void;
};

const REFRESH_COOKIE_MAX_AGE_S = 31_536_000;
const ACCESS_COOKIE_MAX_AGE_S = 86_400;
const ACCESS_COOKIE = "stack-access";
/** The browser store re-reads the cookies this often, so a sign-in or sign-out in another tab shows here. */
const COOKIE_SYNC_INTERVAL_MS = 100;

/** The string 'undefined' is an unset variable turned into text, never a real (unguessable) token. */
function checkTokens(tokens: Tokens): Tokens {
  for (const [name, value] of Object.entries(tokens)) {
    if (value === "undefined") {
      throw new Error(
        `Invalid token store: the ${name} is the string 'undefined'. Tokens are never 'undefined'.`,
      );
    }
  }
  return { accessToken: tokens.accessToken ?? null, refreshToken: tokens.refreshToken ?? null };
}

/** A value and its listeners; `replace` tells the listeners only when the tokens really change. */
function createTokenHolder(initial: Tokens) {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    replace(next: Tokens) {
      if (next.accessToken === current.accessToken && next.refreshToken === current.refreshToken) return;
      current = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export function memoryTokenStore(initial: Partial<Tokens> = {}): TokenStore {
  const holder = createTokenHolder(checkTokens({ accessToken: null, refreshToken: null, ...initial }));
  return {
    get: holder.get,
    set: (tokens) => holder.replace(checkTokens(tokens)),
    subscribe: holder.subscribe,
  };
}

/** Explicit tokens (a server acting for a user it holds tokens of): both are required. */
export function explicitTokenStore(tokens: { accessToken: string; refreshToken: string }): TokenStore {
  if (!tokens || typeof tokens.accessToken !== "string" || typeof tokens.refreshToken !== "string") {
    throw new Error(
      "Invalid token store: explicit tokens need both accessToken and refreshToken as strings.",
    );
  }
  return memoryTokenStore(tokens);
}

// ------------------------------------------------------------------------------------------------ cookie format

const refreshCookieBase = (projectId: string) => `stack-refresh-${projectId}`;

/**
 * Stack's SDK from 2.8.108 on writes the same cookies under `hexclave-` names (and reads ours as legacy). Reading both
 * spellings lets the two SDKs share a browser; ours writes the `stack-` names of WIRE.md §3.6 and deletes the others.
 */
const OTHER_SPELLING = "hexclave-";

/** The structured refresh cookies (`…--default`, with or without `__Host-`), whose JSON carries `updated_at_millis`. */
function isStructuredRefreshCookie(projectId: string, name: string): boolean {
  const base = refreshCookieBase(projectId);
  const bases = [base, base.replace(/^stack-/, OTHER_SPELLING)];
  return bases.some((b) => name.startsWith(`${b}--`) || name.startsWith(`__Host-${b}--`));
}

/** The legacy refresh cookies hold the plain token: read when no structured one exists, deleted on the next write. */
const legacyRefreshCookies = (projectId: string) => [refreshCookieBase(projectId), "stack-refresh"];

function parseRefreshCookie(value: string): { refreshToken: string; updatedAt: number } | null {
  const data = parseJson(value);
  if (
    typeof data !== "object" ||
    data === null ||
    typeof data.refresh_token !== "string" ||
    !data.refresh_token
  ) {
    return null;
  }
  const updatedAt =
    typeof data.updated_at_millis === "number" ? data.updated_at_millis : Number.NEGATIVE_INFINITY;
  return { refreshToken: data.refresh_token, updatedAt };
}

function parseJson(text: string) {
  try {
    // biome-ignore lint/suspicious/noExplicitAny: the shape is checked field by field right after.
    return JSON.parse(text) as any;
  } catch {
    return null;
  }
}

/** The tokens the cookies hold: the newest structured refresh cookie, else a legacy one; the access cookie counts
 *  only when it belongs to that refresh token (it is shared by all projects). */
function tokensFromCookies(projectId: string, cookies: Map<string, string>): Tokens {
  let newest: { refreshToken: string; updatedAt: number } | null = null;
  for (const [name, value] of cookies) {
    if (!isStructuredRefreshCookie(projectId, name)) continue;
    const parsed = parseRefreshCookie(value);
    if (parsed && (!newest || parsed.updatedAt > newest.updatedAt)) newest = parsed;
  }
  const legacy = legacyRefreshCookies(projectId)
    .map((name) => cookies.get(name))
    .find((value) => !!value);
  const refreshToken = newest?.refreshToken ?? legacy ?? null;

  // Either spelling of the access cookie, whichever belongs to the refresh token.
  const accessToken =
    [ACCESS_COOKIE, `${OTHER_SPELLING}access`]
      .map((name) => parseJson(cookies.get(name) ?? ""))
      .find(
        (access) =>
          Array.isArray(access) &&
          access.length === 2 &&
          typeof access[1] === "string" &&
          refreshToken !== null &&
          access[0] === refreshToken,
      )?.[1] ?? null;
  return { refreshToken, accessToken };
}

// ------------------------------------------------------------------------------------------------ cookie store

/** Browser cookies per WIRE.md §3.6, re-read every 100 ms so tabs stay in sync. */
export function cookieTokenStore(options: CookieTokenStoreOptions): TokenStore & { dispose(): void } {
  const { projectId, now = Date.now } = options;
  const document = options.document ?? globalThis.document;
  if (!document) {
    throw new Error("The cookie token store needs a browser document; use the memory store elsewhere.");
  }
  const secure = options.secure ?? globalThis.location?.protocol === "https:";
  const startInterval = options.setInterval ?? ((callback, ms) => setInterval(callback, ms));
  const stopInterval = options.clearInterval ?? ((handle) => clearInterval(handle as number));

  const writeCookie = (name: string, value: string | null, maxAgeSeconds: number) => {
    // __Host- cookies are only accepted with Secure and Path=/ (and no Domain), also when deleting them.
    const secureAttribute = secure || name.startsWith("__Host-") ? "; Secure" : "";
    const encoded = value === null ? "" : encodeCookieValue(value);
    document.cookie = `${name}=${encoded}; Path=/; Max-Age=${value === null ? 0 : maxAgeSeconds}; SameSite=Lax${secureAttribute}`;
  };

  /** The access cookie is written only beside a refresh token, so an access token alone lives in memory. */
  const read = (previous: Tokens | null): Tokens => {
    const tokens = tokensFromCookies(projectId, parseCookies(document.cookie));
    const keepPrevious = previous !== null && previous.refreshToken === tokens.refreshToken;
    return { ...tokens, accessToken: tokens.accessToken ?? (keepPrevious ? previous.accessToken : null) };
  };

  const write = ({ accessToken, refreshToken }: Tokens) => {
    const ownName = `${secure ? "__Host-" : ""}${refreshCookieBase(projectId)}--default`;
    for (const name of parseCookies(document.cookie).keys()) {
      const isRefreshCookie =
        isStructuredRefreshCookie(projectId, name) || legacyRefreshCookies(projectId).includes(name);
      if (isRefreshCookie && name !== ownName) writeCookie(name, null, 0);
    }
    const refreshValue =
      refreshToken && JSON.stringify({ refresh_token: refreshToken, updated_at_millis: now() });
    writeCookie(ownName, refreshValue, REFRESH_COOKIE_MAX_AGE_S);
    const accessValue = refreshToken && accessToken && JSON.stringify([refreshToken, accessToken]);
    writeCookie(ACCESS_COOKIE, accessValue, ACCESS_COOKIE_MAX_AGE_S);
  };

  if (secure) writeCookie("stack-is-https", "true", REFRESH_COOKIE_MAX_AGE_S);
  const holder = createTokenHolder(read(null));
  const interval = startInterval(() => holder.replace(read(holder.get())), COOKIE_SYNC_INTERVAL_MS);
  return {
    get: holder.get,
    set(tokens) {
      const checked = checkTokens(tokens);
      write(checked);
      holder.replace(checked);
    },
    subscribe: holder.subscribe,
    dispose: () => stopInterval(interval),
  };
}

// ------------------------------------------------------------------------------------------------ request store

function headerOf(headers: RequestLike["headers"], name: string): string | null {
  if (typeof headers.get === "function") return (headers as { get(name: string): string | null }).get(name);
  const record = headers as Record<string, string | undefined>;
  const key = Object.keys(record).find((key) => key.toLowerCase() === name);
  return (key !== undefined && record[key]) || null;
}

/** `Authorization: Bearer stackauth_<base64 JSON>` (or `hexclave_`), as Stack's SDK writes it: the JSON, or null. */
function bearerAuthJson(request: RequestLike): string | null {
  const match = /^Bearer (?:stackauth|hexclave)_(.+)$/i.exec(
    headerOf(request.headers, "authorization") ?? "",
  );
  if (!match?.[1]) return null;
  try {
    return atob(match[1]);
  } catch {
    throw new Error("Invalid Authorization header: expected Bearer stackauth_<base64 JSON>.");
  }
}

/**
 * Server side: the tokens of a request, from its `Authorization: Bearer stackauth_…` header, its `x-stack-auth`
 * header (JSON), or else its cookies (Stack's SDK checks them in that order); writes only update this store.
 */
export function requestTokenStore(projectId: string, request: RequestLike): TokenStore {
  const authHeader = bearerAuthJson(request) ?? headerOf(request.headers, "x-stack-auth");
  if (!authHeader) {
    const cookies = parseCookies(headerOf(request.headers, "cookie") ?? "");
    return memoryTokenStore(tokensFromCookies(projectId, cookies));
  }
  const auth = parseJson(authHeader);
  const isTokenOrNull = (value: unknown) => value == null || typeof value === "string";
  const valid =
    typeof auth === "object" &&
    auth !== null &&
    isTokenOrNull(auth.accessToken) &&
    isTokenOrNull(auth.refreshToken);
  if (!valid) {
    throw new Error(
      "Invalid x-stack-auth (or Authorization) header: expected JSON {accessToken, refreshToken}.",
    );
  }
  return memoryTokenStore({ accessToken: auth.accessToken ?? null, refreshToken: auth.refreshToken ?? null });
}

/** The store an app's `tokenStore` option names (null for none); browser details come from `env`. */
export function resolveTokenStore(
  option: unknown,
  projectId: string,
  env: Omit<CookieTokenStoreOptions, "projectId"> = {},
): TokenStore | null {
  if (option === null || option === undefined) return null;
  if (option === "cookie") return cookieTokenStore({ ...env, projectId });
  if (option === "memory") return memoryTokenStore();
  if (typeof option === "object") {
    if ("headers" in option) return requestTokenStore(projectId, option as RequestLike);
    if ("accessToken" in option || "refreshToken" in option) {
      return explicitTokenStore(option as { accessToken: string; refreshToken: string });
    }
  }
  throw new Error(`Invalid token store ${String(option)}`);
}
