// Request bodies by content type (WIRE.md §1.6), read with a size cap so a huge upload is refused early.
import { KnownErrors } from "@gatehouse/contract";
import { TextError } from "../text-error.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new TextError(413, "Request body too large.");

async function readCapped(request: Request): Promise<string> {
  const length = request.headers.get("content-length");
  if (length !== null && Number(length) <= MAX_BODY_BYTES) {
    // A declared length within the cap: read it whole (the adapter's fast path, no web stream in between).
    return request.text();
  }
  return (await readCappedBytes(request)).toString("utf8");
}

/** The body's bytes, refused with 413 past the cap: counted as the chunks arrive when no length is declared. */
export async function readCappedBytes(request: Request): Promise<Buffer> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * How deeply JSON bodies may nest. RFC 8259 §9 lets a parser limit nesting; Keycloak's parser (Jackson) stops at
 * 1,000 levels, and so do we: deeper values made JSON.stringify overflow the stack on the way to the database (a 500).
 * Metadata of any real use is a few levels deep.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Whether JSON text nests deeper than the limit: one pass over the characters before parsing, so a deep document
 * is refused before it is built. Brackets inside strings do not count; the text need not be valid (the parse after
 * this one says whether it is).
 */
function nestsTooDeeply(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The parsed body: undefined when there is none, a JSON value, or a flat object of strings for form posts. SCIM
 * passes its own JSON media type (`application/scim+json`) as `jsonType`.
 */
export async function parseBody(request: Request, jsonType = "application/json"): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const text = await readCapped(request);
  const contentType = request.headers.get("content-type");
  if (text.length === 0) return undefined;
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType === "application/json" || mediaType === jsonType) {
    // A document nested beyond the limit is one this parser does not accept: the same error as invalid JSON, whose
    // message WIRE.md §1.6 fixes.
    if (nestsTooDeeply(text))
      throw KnownErrors.BODY_PARSING_ERROR({ message: "Invalid JSON in request body" });
    try {
      return JSON.parse(text);
    } catch {
      throw KnownErrors.BODY_PARSING_ERROR({ message: "Invalid JSON in request body" });
    }
  }
  if (mediaType === "application/x-www-form-urlencoded") {
    return Object.fromEntries(new URLSearchParams(text));
  }
  throw KnownErrors.BODY_PARSING_ERROR({
    message: `Unknown content type in request body: ${contentType ?? ""}`,
  });
}
