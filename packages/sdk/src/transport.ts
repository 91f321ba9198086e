// The SDK's HTTP transport (WIRE.md §1, PRODUCT.md §7–§8): sends a request under {baseUrl}/api/v1 with the x-stack-*
// headers, restores masked statuses, rebuilds known errors, and retries what Stack's SDK retries (an invalid access
// token once, 429 after Retry-After, network failures of idempotent methods, 508 INFINITE_LOOP_DETECTED).

import { bothSpellings } from "@gatehouse/contract/headers";
import { type KnownError, knownErrorFromWire, knownErrorIs } from "@gatehouse/contract/known-error";
import { StackAssertionError } from "./errors.ts";

export type AccessType = "client" | "server" | "admin";

export type Credentials = {
  projectId: string;
  accessType: AccessType;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** Admin access token (owned admin apps of the dashboard). */
  adminAccessToken?: () => Promise<string | null>;
};

/** Where the user's access token comes from for a request; the session implements it (session.ts). */
export type AccessTokenSource = {
  /** A usable access token (refreshing first when it is about to expire), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  /** The refresh token, sent as the `refresh-token` header on the calls that need it. */
  getRefreshToken(): string | null;
  /** The server called this token invalid: forget it so the next getAccessToken refreshes. */
  markAccessTokenExpired(accessToken: string): void;
};

export type TransportOptions = {
  /** e.g. http://localhost:8102 (without /api/v1). */
  baseUrl: string;
  credentials: Credentials;
  /** Sent as x-stack-client-version, e.g. "js @gatehouse/sdk@0.1.0". */
  clientVersion: string;
  extraHeaders?: Record<string, string>;
  fetch?: typeof fetch;
  /** Part of the SDK's shared injectables; the transport itself keeps no clock. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Browser: () => navigator.onLine === false (the default where `navigator` exists). */
  isOffline?: () => boolean;
  /** Per attempt, so a dead server fails within seconds. Default 10 s. */
  timeoutMs?: number;
};

export type RequestOptions = {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded (the token endpoint). */
  form?: Record<string, string>;
  /** Sent as it is, as application/octet-stream (an uploaded file). */
  file?: Blob;
  /** Adds x-stack-access-token (and x-stack-refresh-token when `sendRefreshToken`). */
  session?: AccessTokenSource | null;
  sendRefreshToken?: boolean;
  headers?: Record<string, string>;
  /** This request's time limit per attempt, when it is not the transport's (an upload). */
  timeoutMs?: number;
};

/** A non-2xx answer that is not a known error (a plain-text error, a 5xx…). */
export class StatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    message: string,
  ) {
    super(message);
    this.name = "StatusError";
  }
}

export const OFFLINE_MESSAGE = "You seem to be offline. Please check your connection and try again.";

/** Delays before the retries of a failed network attempt: 1000, 2000, 4000, 8000, 16000 ms (then it surfaces). */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000] as const;

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
/** The longest delay setTimeout accepts. */
const MAX_WAIT_MS = 2147483647;

/** What one attempt ended with, when it did not simply answer or throw. */
type Retry =
  | { kind: "invalid-token"; error: KnownError; accessToken: string }
  | { kind: "rate-limited"; waitMs: number | null; error: Error }
  | { kind: "network"; error: Error };

export function createTransport(options: TransportOptions) {
  const { credentials } = options;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const isOffline =
    options.isOffline ?? (() => typeof navigator !== "undefined" && navigator.onLine === false);
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function headersFor(
    request: RequestOptions,
    accessToken: string | null,
  ): Promise<Record<string, string>> {
    const h: Record<string, string> = {
      "x-stack-project-id": credentials.projectId,
      "x-stack-access-type": credentials.accessType,
      "x-stack-client-version": options.clientVersion,
      "x-stack-override-error-status": "true",
      "x-stack-allow-anonymous-user": "true",
      "x-stack-random-nonce": randomNonce(),
    };
    // Each key goes only with the access types that use it, so a secret never travels on a weaker request.
    const { accessType } = credentials;
    if (credentials.publishableClientKey)
      h["x-stack-publishable-client-key"] = credentials.publishableClientKey;
    if (accessType !== "client" && credentials.secretServerKey)
      h["x-stack-secret-server-key"] = credentials.secretServerKey;
    if (accessType === "admin" && credentials.superSecretAdminKey)
      h["x-stack-super-secret-admin-key"] = credentials.superSecretAdminKey;
    const adminToken = accessType === "admin" ? await credentials.adminAccessToken?.() : null;
    if (adminToken) h["x-stack-admin-access-token"] = adminToken;
    if (accessToken) h["x-stack-access-token"] = accessToken;
    const refreshToken = request.sendRefreshToken ? request.session?.getRefreshToken() : null;
    if (refreshToken) h["x-stack-refresh-token"] = refreshToken;
    return { ...h, ...options.extraHeaders, ...request.headers };
  }

  /** One attempt: the parsed answer, a Retry, or a thrown error that ends the request. */
  async function attempt(url: string, request: RequestOptions): Promise<{ data: unknown } | Retry> {
    const method = request.method ?? "GET";
    const accessToken = (await request.session?.getAccessToken()) ?? null;
    const body = encodeBody(request);
    const init: RequestInit = {
      method,
      headers: { ...body.headers, ...(await headersFor(request, accessToken)) },
      body: body.body,
      signal: AbortSignal.timeout(request.timeoutMs ?? timeoutMs),
      // Cloudflare Workers reject these fields; Stack's SDK leaves them out there too.
      ...("WebSocketPair" in globalThis ? {} : { credentials: "omit", cache: "no-store" }),
    };

    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, init);
      text = await response.text(); // inside the try: the timeout covers a body that never ends
    } catch (cause) {
      const error = new Error(`Failed to send request to ${method} ${url}: ${describe(cause)}`, { cause });
      // A non-idempotent request may have reached the server: sending it again could apply it twice.
      if (!IDEMPOTENT_METHODS.has(method)) throw error;
      return { kind: "network", error };
    }

    const status = actualStatus(response);
    const failure = () => `Failed to send request to ${method} ${url}: ${status} ${text}`;
    if (status === 508 && text.includes("INFINITE_LOOP_DETECTED"))
      return { kind: "network", error: new StatusError(status, text, failure()) };

    const knownCode = header(response, "known-error");
    if (knownCode !== null) {
      const error = knownErrorFromWire(status, parseKnownErrorBody(knownCode, text));
      if (accessToken && knownErrorIs(error, "INVALID_ACCESS_TOKEN"))
        return { kind: "invalid-token", error, accessToken };
      throw error;
    }

    if (status >= 200 && status < 300) {
      const isJson = response.headers.get("content-type")?.includes("application/json") && text !== "";
      return { data: isJson ? JSON.parse(text) : text };
    }
    const error = new StatusError(status, text, failure());
    if (status === 429) return { kind: "rate-limited", waitMs: retryAfterMs(response), error };
    throw error;
  }

  /**
   * `path` is under /api/v1 (e.g. "/users/me"). Resolves the parsed JSON (or the text of a text answer) of a 2xx;
   * throws a KnownError for known errors and a StatusError for other non-2xx answers.
   */
  async function request<T = unknown>(path: string, requestOptions: RequestOptions = {}): Promise<T> {
    const url = buildUrl(options.baseUrl, path, requestOptions.query);
    let retries = 0; // network failures and 429s share Stack's budget of 5 retries
    let tokenRetried = false;
    for (;;) {
      if (isOffline()) throw new Error(OFFLINE_MESSAGE);
      const outcome = await attempt(url, requestOptions);
      if ("data" in outcome) return outcome.data as T;
      if (outcome.kind === "invalid-token") {
        if (tokenRetried) throw outcome.error;
        tokenRetried = true;
        requestOptions.session?.markAccessTokenExpired(outcome.accessToken);
        continue;
      }
      const delay = RETRY_DELAYS_MS[retries++];
      if (delay === undefined) throw outcome.error;
      await sleep(outcome.kind === "rate-limited" && outcome.waitMs !== null ? outcome.waitMs : delay);
    }
  }

  // The credentials are exposed for the calls that carry them in a body (the token endpoint's client_secret).
  return { request, credentials };
}

export type Transport = ReturnType<typeof createTransport>;

function buildUrl(baseUrl: string, path: string, query: RequestOptions["query"]): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}/api/v1${path}`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.toString();
}

function encodeBody(request: RequestOptions): { headers: Record<string, string>; body?: string | Blob } {
  if (request.file !== undefined)
    return { headers: { "content-type": "application/octet-stream" }, body: request.file };
  if (request.form !== undefined && request.body !== undefined)
    throw new StackAssertionError("A request has either a JSON body or a form, not both");
  if (request.form !== undefined)
    return {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(request.form).toString(),
    };
  if (request.body !== undefined)
    return { headers: { "content-type": "application/json" }, body: JSON.stringify(request.body) };
  return { headers: {} };
}

/** A response header under either spelling (x-stack-* or x-hexclave-*). */
function header(response: Response, suffix: string): string | null {
  const [stack, hexclave] = bothSpellings(suffix);
  return response.headers.get(stack) ?? response.headers.get(hexclave);
}

/** The real status of a masked 4xx (WIRE.md §1.8). */
function actualStatus(response: Response): number {
  const masked = header(response, "actual-status");
  return masked === null ? response.status : Number(masked);
}

function parseKnownErrorBody(code: string, text: string): Parameters<typeof knownErrorFromWire>[1] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new StackAssertionError("A known-error response has no JSON body", { code, text });
  }
  if (typeof body !== "object" || body === null || (body as { code?: unknown }).code !== code)
    throw new StackAssertionError("The known-error header does not match the code in the body", {
      code,
      body,
    });
  return body as Parameters<typeof knownErrorFromWire>[1];
}

/** Retry-After in seconds (WIRE.md §1.10), or null when absent or not a number. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get("retry-after");
  const seconds = value === null || value.trim() === "" ? Number.NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_WAIT_MS) : null;
}

/** A cache buster: 128 random bits as hex (getRandomValues works in insecure browser contexts too). */
function randomNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED…) is in its cause.
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
  return `${cause.message}${inner}`;
}
