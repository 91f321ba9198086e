// Building responses: JSON and text with explicit UTF-8 content types, and the rendering of every error kind.
import { bothSpellings, isKnownError, KnownErrors } from "@gatehouse/contract";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { type Logger, summarizeError } from "../logger.ts";
import { isTextError } from "../text-error.ts";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function textResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
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
    const res = renderError(KnownErrors.DATABASE_UNAVAILABLE(), ctx);
    res.headers.set("retry-after", "1");
    return res;
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
