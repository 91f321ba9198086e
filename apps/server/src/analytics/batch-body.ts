// Stack's event tracker posts its batches gzipped, as application/octet-stream, when the browser can compress
// (plain JSON otherwise, and on page hide). This turns either into a JSON request the route's validation reads.
import { gunzipSync } from "node:zlib";
import { KnownErrors } from "@gatehouse/contract";
import { MAX_BODY_BYTES, readCappedBytes } from "../http/body.ts";
import { TextError } from "../text-error.ts";

const tooLarge = () => new TextError(413, "Request body too large.");

/**
 * The tracker cuts texts to 200 UTF-16 units, which can split an emoji and leave half a surrogate pair: JSON
 * escapes it (`\ud83d`), and the database cannot store it. Stack's backend replaces such halves with U+FFFD before
 * storing, and so does this, on the JSON text: escapes are matched left to right, so `\\` never starts one.
 * `\u0000`, which PostgreSQL's jsonb refuses too, becomes U+FFFD as well.
 */
export function replaceUnstorableEscapes(json: string): string {
  return json.replace(
    /\\(?:u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|u[dD][c-fC-F][0-9a-fA-F]{2}|u0000|[\s\S])/g,
    // Six characters: a lone half or NUL. A whole pair (12) and any other escape (2) stay as they are.
    (found) => (found.length === 6 ? "\\ufffd" : found),
  );
}

/** The batch as a JSON request: gunzipped (its output capped like any body) when it came as octet-stream. */
export async function decodeBatchRequest(request: Request): Promise<Request> {
  const mediaType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json" && mediaType !== "application/octet-stream") return request;
  const bytes = await readCappedBytes(request);
  let text: string;
  if (mediaType === "application/octet-stream") {
    try {
      // maxOutputLength stops a small bomb from inflating past the cap any other body has.
      text = gunzipSync(bytes, { maxOutputLength: MAX_BODY_BYTES }).toString("utf8");
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
      throw KnownErrors.BODY_PARSING_ERROR({ message: "The request body is not gzipped JSON" });
    }
  } else {
    text = bytes.toString("utf8");
  }
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Request(request.url, { method: request.method, headers, body: replaceUnstorableEscapes(text) });
}
