// Client spans around the server's outgoing work, made by wrapping the mailer and the webhook sender where deps
// builds them (only when tracing is on), so the e-mail and webhook code itself knows nothing of tracing.
import type { Mailer } from "../email/mailer.ts";
import type { WebhookSender } from "../webhooks/sender.ts";
import type { Tracing } from "./tracing.ts";

export function tracedMailer(mailer: Mailer, tracing: Tracing): Mailer {
  return {
    ...mailer,
    send: (smtp, message) =>
      tracing.span(
        "smtp send",
        { "server.address": smtp.host, "server.port": smtp.port, "network.protocol.name": "smtp" },
        () => mailer.send(smtp, message),
      ),
  };
}

export function tracedWebhookSender(sender: WebhookSender, tracing: Tracing): WebhookSender {
  return {
    ...sender,
    // The endpoint's origin only: a webhook URL's path or query may carry a token of the receiver's.
    send: (endpoint, messageId, body) =>
      tracing
        .span(
          "webhook POST",
          { "http.request.method": "POST", "server.address": new URL(endpoint.url).host },
          async () => {
            const result = await sender.send(endpoint, messageId, body);
            if (!result.ok)
              throw Object.assign(new Error(result.error ?? `status ${result.statusCode}`), { result });
            return result;
          },
        )
        .catch((error: unknown) => {
          // The sender never throws for a receiver's failure: the span recorded it, the worker gets its result back.
          const result = (error as { result?: Awaited<ReturnType<WebhookSender["send"]>> }).result;
          if (result) return result;
          throw error;
        }),
  };
}
