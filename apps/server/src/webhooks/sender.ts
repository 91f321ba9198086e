// Sending one webhook request (WIRE.md §4.16): the signed POST with its 15-second timeout, and what came back, in the
// form the attempts log records. Used by the worker for deliveries and by the management API for test events.
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { EndpointRow, NewAttemptRow } from "../db/webhooks-repo.ts";
import { isPublicUrl, NOT_PUBLIC_MESSAGE } from "./addresses.ts";
import { webhookHeaders } from "./signing.ts";

export const SEND_TIMEOUT_MS = 15_000;
/** After a rotation the previous secret signs too, for this long. */
export const PREVIOUS_SECRET_SIGNS_MS = 24 * 60 * 60 * 1000;
const EXCERPT_BYTES = 1024;
const MAX_ERROR_LENGTH = 1000;

export type SendResult = {
  ok: boolean;
  attemptedAt: Date;
  statusCode: number | null;
  /** The first KiB of the response body; null when no response came. */
  bodyExcerpt: string | null;
  error: string | null;
  durationMs: number;
};

export type WebhookSenderOptions = {
  clock: Clock;
  /** Opens the endpoints' sealed secrets. */
  box: SecretBox;
  /** The operator's GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS. */
  allowPrivateUrls: boolean;
  timeoutMs?: number;
};

/** The secrets that sign a request now: the current one first, then the previous one within a day of a rotation. */
export function signingSecrets(endpoint: EndpointRow, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(endpoint.sealedSecret)];
  const rotatedAt = endpoint.secretRotatedAt?.getTime();
  if (
    endpoint.sealedPreviousSecret &&
    rotatedAt !== undefined &&
    now.getTime() - rotatedAt < PREVIOUS_SECRET_SIGNS_MS
  ) {
    secrets.push(box.open(endpoint.sealedPreviousSecret));
  }
  return secrets;
}

/** The first KiB of a body, reading no more of it than that. */
async function excerpt(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < EXCERPT_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
}

function describeError(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "Timed out";
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  const message = error instanceof Error ? `${error.message}${cause}` : String(error);
  return message.slice(0, MAX_ERROR_LENGTH);
}

export function createWebhookSender(options: WebhookSenderOptions) {
  const { clock, box } = options;
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;

  return {
    /** POSTs `body` to the endpoint, signed; any 2xx is a success. Never throws for the receiver's failures. */
    async send(endpoint: EndpointRow, messageId: string, body: string): Promise<SendResult> {
      const attemptedAt = clock.now();
      const started = performance.now();
      const result = (fields: Omit<SendResult, "attemptedAt" | "durationMs">): SendResult => ({
        ...fields,
        attemptedAt,
        durationMs: Math.round(performance.now() - started),
      });
      try {
        if (!options.allowPrivateUrls && !(await isPublicUrl(endpoint.url))) {
          return result({ ok: false, statusCode: null, bodyExcerpt: null, error: NOT_PUBLIC_MESSAGE });
        }
        const response = await fetch(endpoint.url, {
          method: "POST",
          headers: webhookHeaders(signingSecrets(endpoint, box, attemptedAt), messageId, attemptedAt, body),
          body,
          // A redirect is a failure, not a detour: it could lead to an address the check above refuses.
          redirect: "manual",
          signal: AbortSignal.timeout(timeoutMs),
        });
        const ok = response.status >= 200 && response.status < 300;
        return result({
          ok,
          statusCode: response.status,
          bodyExcerpt: await excerpt(response),
          error: ok ? null : `HTTP ${response.status}`,
        });
      } catch (error) {
        return result({ ok: false, statusCode: null, bodyExcerpt: null, error: describeError(error) });
      }
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;

/** The attempts-log row for one send. */
export function attemptRow(
  endpoint: EndpointRow,
  message: { deliveryId: string | null; messageId: string; eventType: string; attemptNumber: number },
  result: SendResult,
  nextAttemptAt: Date | null,
): NewAttemptRow {
  return {
    id: randomUUID(),
    projectId: endpoint.projectId,
    endpointId: endpoint.id,
    ...message,
    status: result.ok ? "succeeded" : "failed",
    responseStatusCode: result.statusCode,
    responseBodyExcerpt: result.bodyExcerpt,
    error: result.error,
    attemptedAt: result.attemptedAt,
    durationMs: result.durationMs,
    nextAttemptAt,
  };
}
