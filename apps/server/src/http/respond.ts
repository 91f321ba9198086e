// Building responses: JSON and text with explicit UTF-8 content types, and the rendering of every error kind.
import { bothSpellings, isKnownError, KnownErrors } from "@gatehouse/contract";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { type Logger, summarizeError } from "../logger.ts";
import { isTextError } from "../text-error.ts";

/** What a response made here was made of: the way out makes it again with more headers (finishResponse). */
type Parts = { status: number; body: string; headers: Record<string, string> };
const madeOf = new WeakMap<Response, Parts>();

/**
 * Responses made here are answered as made: add headers through the `headers` argument or finishResponse, never
 * on `res.headers` (the way out makes the response again from its parts, which would drop them).
 */
function respond(parts: Parts): Response {
  const res = new Response(parts.body, { status: parts.status, headers: parts.headers });
  madeOf.set(res, parts);
  return res;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const json = JSON.stringify(body);
  return respond({
    status,
    body: json,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function textResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return respond({
    status,
    body: text,
    headers: { "content-type": "text/plain; charset=utf-8", ...headers },
  });
}

/**
 * The response with `headers` set, `defaults` set where the response has no header of that name, and `status` when
 * given. A response made by the helpers above is made again from its parts with a plain header record, which
 * @hono/node-server writes as it is; setting headers on `res.headers` would turn the adapter's light response into
 * undici Headers, validated per header and sorted when written, on every request (about 5 % of `/users/me`'s CPU).
 * Any other response (Hono's own, a static file) gets them on its headers, and is made anew only for a new status.
 */
export function finishResponse(
  res: Response,
  headers: Record<string, string>,
  defaults: Record<string, string>,
  status?: number,
): Response {
  const parts = madeOf.get(res);
  if (parts) {
    const merged = { ...parts.headers };
    const names = Object.keys(merged).map((name) => name.toLowerCase());
    for (const name in defaults) if (!names.includes(name)) merged[name] = defaults[name] as string;
    Object.assign(merged, headers);
    return respond({ status: status ?? parts.status, body: parts.body, headers: merged });
  }
  for (const [name, value] of Object.entries(defaults))
    if (!res.headers.has(name)) res.headers.set(name, value);
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return status === undefined ? res : new Response(res.body, { status, headers: res.headers });
}

/** Known errors as JSON with the code in both header spellings; text errors as text; anything else a bare 500. */
export function renderError(
  error: unknown,
  ctx: { requestId: string; development: boolean; logger: Logger; method: string; path: string },
): Response {
  if (isDatabaseUnavailable(error)) {
    // Not a bug but an outage (a restart, a failover): a warning, and an answer the caller may retry.
    ctx.logger.warn(
      "database unavailable",
      { request_id: ctx.requestId, method: ctx.method, path: ctx.path },
      error,
    );
    return finishResponse(renderError(KnownErrors.DATABASE_UNAVAILABLE(), ctx), { "retry-after": "1" }, {});
  }
  if (isKnownError(error)) {
    const [stack, hexclave] = bothSpellings("known-error");
    const headers = { [stack]: error.code, [hexclave]: error.code };
    // Redis out of reach is an outage like the database's: the caller may retry shortly. Not logged here, per
    // request: the Redis store says once that it went away and once that it came back.
    if (error.code === "REDIS_UNAVAILABLE") headers["retry-after"] = "1";
    return jsonResponse(error.status, error.toBody(), headers);
  }
  if (isTextError(error)) return textResponse(error.status, error.message, error.headers);
  ctx.logger.error(
    "unexpected error",
    { request_id: ctx.requestId, method: ctx.method, path: ctx.path },
    error,
  );
  // Internals reach the caller only in development mode; the request id ties the answer to the log. Even then only
  // the summary the log gets: a failed query's parameters may belong to someone else (a hash, another user's row).
  const summary = summarizeError(error);
  const detail = ctx.development
    ? `\n\n${[summary.error, summary.error_query, summary.error_stack].filter(Boolean).join("\n")}`
    : "";
  return textResponse(
    500,
    `Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${ctx.requestId}${detail}`,
  );
}
