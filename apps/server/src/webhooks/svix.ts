// Forwarding events to a Svix server instead of delivering them here, when the operator configures one: one message
// per event in the Svix application whose uid is the project id (created with the first message). The event id is
// the message's `eventId`, so Svix drops a message sent twice (it answers 409, which counts as sent).
import type { EventRow } from "../db/webhooks-repo.ts";

export type SvixSettings = { url: string; apiKey: string };

const TIMEOUT_MS = 15_000;

export type ForwardResult = { ok: true } | { ok: false; error: string };

export async function forwardToSvix(svix: SvixSettings, event: EventRow): Promise<ForwardResult> {
  const appId = encodeURIComponent(event.projectId);
  const url = `${svix.url.replace(/\/+$/, "")}/api/v1/app/${appId}/msg/`;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${svix.apiKey}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({
        eventType: event.type,
        payload: { type: event.type, data: event.data },
        eventId: event.id,
        application: { name: event.projectId, uid: event.projectId },
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    if ((response.status >= 200 && response.status < 300) || response.status === 409) return { ok: true };
    return { ok: false, error: `Svix answered HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
