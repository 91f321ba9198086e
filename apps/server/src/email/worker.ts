// The e-mail delivery worker: claims due outbox rows, sends them over SMTP, retries failures with backoff for 24
// hours, keeps mail in the development inbox when no SMTP server is configured, and clears old bodies.
import type { Clock } from "../clock.ts";
import type { ChangeFeed } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { type Logger, summarizeError } from "../logger.ts";
import { createPoller } from "../poller.ts";
import { createMailer, type Mailer, type SmtpSettings } from "./mailer.ts";
import { createEmailOutbox, OUTBOX_CHANGE, type OutboxRow, outboxMessageId } from "./outbox.ts";

export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 60 * 60 * 1000;
/** Failed sends are retried until this long after the e-mail was queued (WIRE.md §5.2). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Bodies of sent e-mails are kept this long, then cleared (WIRE.md §4.18). */
export const SENT_BODY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const CLEANUP_EVERY_MS = 60 * 60 * 1000;
const MAX_ERROR_LENGTH = 1000;

/** Delay before the next try after `attempts` failed ones: 30 s, 1 min, 2 min, … capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(attempts - 1, 0), RETRY_MAX_MS);
}

/** The first http(s) link of a plain-text body, without the closing bracket of a "label (url)" rendering. */
export function firstLink(text: string | null): string | undefined {
  let link = text?.match(/https?:\/\/[^\s<>"']+/)?.[0];
  if (!link) return undefined;
  link = link.replace(/[.,;:!?]+$/, "");
  const count = (s: string, c: string) => s.split(c).length - 1;
  while (link.endsWith(")") && count(link, ")") > count(link, "(")) link = link.slice(0, -1);
  return link;
}

export type ProjectEmail = { smtp: SmtpSettings | undefined; productionMode: boolean };

export type EmailWorkerOptions = {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The instance's SMTP server, for projects whose `email_config` is `shared`. */
  defaultSmtp?: SmtpSettings;
  /**
   * What the worker needs of a project: its own SMTP server (`standard`), or undefined when it uses the shared one,
   * and whether it is in production mode.
   */
  getProjectEmail(projectId: string): ProjectEmail | Promise<ProjectEmail>;
  pollMs?: number;
  /** Where queued e-mail is announced (email/outbox.ts): the worker sends it then rather than at its next poll. */
  changes?: ChangeFeed;
  batchSize?: number;
  /** How long a claimed row is reserved; must exceed the mailer's send timeout so no two workers send it at once. */
  leaseMs?: number;
  mailer?: Mailer;
  /**
   * Why a due e-mail must not go out after all (its recipient turned the category off since it was queued), or
   * undefined to send it.
   */
  skipReason?(row: OutboxRow): Promise<string | undefined>;
};

export function createEmailWorker(options: EmailWorkerOptions) {
  const { clock, logger } = options;
  const pollMs = options.pollMs ?? 5000;
  const batchSize = options.batchSize ?? 25;
  const leaseMs = options.leaseMs ?? 10 * 60 * 1000;
  const outbox = createEmailOutbox({ db: options.db, clock });
  const mailer = options.mailer ?? createMailer();

  let lastCleanupAt: number | undefined;

  async function deliver(row: OutboxRow): Promise<void> {
    const attempts = row.attempts + 1;
    try {
      const skipReason = await options.skipReason?.(row);
      if (skipReason) {
        await outbox.markSkipped(row.id, skipReason);
        return;
      }
      const project = await options.getProjectEmail(row.projectId);
      const smtp = project.smtp ?? options.defaultSmtp;
      if (!smtp) {
        await outbox.markKept(row.id);
        // The development inbox is documented behaviour (README): a developer without SMTP needs the link to click,
        // so logging it, with the code it carries, is intended. Never for a production-mode project: its links
        // sign real users in, and the log is no place for them (the admin API still lists the e-mail). With any
        // SMTP server configured this line never appears.
        logger.info(
          "e-mail kept in development inbox",
          project.productionMode
            ? { email_id: row.id, template_type: row.templateType }
            : {
                to: row.to,
                subject: row.subject,
                template_type: row.templateType,
                link: firstLink(row.text) ?? null,
              },
        );
        return;
      }
      await mailer.send(smtp, {
        messageId: outboxMessageId(row.id, smtp.senderEmail),
        to: row.to,
        subject: row.subject,
        html: row.html ?? undefined,
        text: row.text ?? undefined,
        // RFC 2369 and RFC 8058: mail clients show an unsubscribe button that POSTs to the link.
        headers: row.listUnsubscribeUrl
          ? {
              "List-Unsubscribe": `<${row.listUnsubscribeUrl}>`,
              "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            }
          : undefined,
      });
      await outbox.markSent(row.id, attempts, clock.now());
    } catch (err) {
      // Stored for the admin API too, so it gets the log's redaction: a failed query's parameters stay out.
      const error = summarizeError(err).error.slice(0, MAX_ERROR_LENGTH);
      const now = clock.now().getTime();
      const deadline = row.createdAt.getTime() + RETRY_WINDOW_MS;
      const giveUp = now >= deadline;
      logger.warn(
        "e-mail delivery failed",
        { email_id: row.id, project_id: row.projectId, attempts, will_retry: !giveUp },
        err,
      );
      if (giveUp) await outbox.markFailed(row.id, attempts, error);
      // The last retry lands on the deadline itself, so the window is used in full and not overshot.
      else
        await outbox.markRetry(
          row.id,
          attempts,
          error,
          new Date(Math.min(now + retryDelayMs(attempts), deadline)),
        );
    }
  }

  async function drain(): Promise<void> {
    const now = clock.now().getTime();
    // Cheap enough to run often, but there is no index on sent_at: once an hour is plenty for a 7-day rule.
    if (lastCleanupAt === undefined || now - lastCleanupAt >= CLEANUP_EVERY_MS) {
      lastCleanupAt = now;
      await outbox.clearSentBodies(new Date(now - SENT_BODY_RETENTION_MS));
    }
    for (;;) {
      const claimedAt = clock.now();
      const rows = await outbox.claimDue(claimedAt, new Date(claimedAt.getTime() + leaseMs), batchSize);
      // In parallel: the pooled transport queues them over its few connections.
      await Promise.all(rows.map(deliver));
      if (rows.length < batchSize) return;
    }
  }

  const poller = createPoller({ name: "e-mail worker", pollMs, logger, drain });
  // Undefined: announcements may have been missed while the feed was down, so look now as well.
  options.changes?.subscribe((payload) => {
    if (payload === undefined || payload === OUTBOX_CHANGE) poller.wake();
  });
  return {
    start: poller.start,
    /** Stops polling and waits for the batch in flight, then closes the SMTP connections. */
    async stop(): Promise<void> {
      await poller.stop();
      mailer.close();
    },
    /** Runs one batch now (tests call this instead of waiting for the poll). */
    runOnce: poller.runOnce,
  };
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;
