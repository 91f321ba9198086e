// SMTP sending through nodemailer: one pooled transport per SMTP server (pooled sends take milliseconds, a fresh
// connection each time ~100 ms), the sender address, and the SMTP settings parsed from a URL or a project config.
import type { ProjectConfig } from "@gatehouse/contract";
import type { createTransport } from "nodemailer";

export type SmtpSettings = {
  host: string;
  port: number;
  username?: string;
  password?: string;
  senderName: string;
  senderEmail: string;
};

/**
 * `messageId`: an outbox e-mail passes its row's own, so every attempt carries the same one; a one-off send (the
 * settings test e-mail) leaves it out and nodemailer makes one up.
 */
export type OutgoingEmail = {
  messageId?: string;
  to: string;
  subject: string;
  html?: string;
  text?: string;
  /** Extra headers (List-Unsubscribe); nodemailer folds and encodes them. */
  headers?: Record<string, string>;
};

/** The project's own SMTP server, or undefined for `shared` (the instance default applies). */
export function smtpFromEmailConfig(config: ProjectConfig["email_config"]): SmtpSettings | undefined {
  if (config.type !== "standard") return undefined;
  return {
    host: config.host,
    port: config.port,
    username: config.username,
    password: config.password,
    senderName: config.sender_name,
    senderEmail: config.sender_email,
  };
}

/**
 * Parses the instance's default SMTP server from one URL:
 *
 *   smtp://[user[:password]@]host[:port]?from=Sender%20Name%20<sender@example.com>
 *   smtps://[user[:password]@]host[:465]?from=sender@example.com
 *
 * - `smtp` defaults to port 587 and upgrades with STARTTLS when the server offers it; `smtps` means implicit TLS,
 *   which is port 465 (the default; another port is rejected, because TLS mode follows the port, WIRE.md §5.2).
 * - user and password are percent-encoded (`@` as %40, `:` as %3A).
 * - `from` is `Name <address>` or a bare address, percent-encoded (`+` is a literal plus, not a space). Without it,
 *   a user name that is an e-mail address is the sender.
 */
export function parseSmtpUrl(value: string): SmtpSettings {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error("SMTP URL is not a valid URL");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new Error(`SMTP URL must start with smtp:// or smtps://, not ${url.protocol}//`);
  }
  const implicitTls = url.protocol === "smtps:";
  const port = url.port ? Number(url.port) : implicitTls ? 465 : 587;
  if (implicitTls && port !== 465)
    throw new Error("smtps:// uses implicit TLS on port 465; use smtp:// for STARTTLS");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) throw new Error("SMTP URL has no host");
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;

  let from: string | undefined;
  // Read the query by hand: URLSearchParams turns `+` into a space, which would corrupt plus addresses.
  for (const pair of url.search.replace(/^\?/, "").split("&")) {
    if (!pair) continue;
    const [key = "", raw = ""] = pair.split(/=(.*)/s);
    if (key !== "from") throw new Error(`SMTP URL has an unknown parameter: ${key}`);
    from = decodeURIComponent(raw).trim();
  }
  const sender = from
    ? parseSender(from)
    : username?.includes("@")
      ? { name: "", email: username }
      : undefined;
  if (!sender)
    throw new Error("SMTP URL needs ?from=Name%20<address> (or a user name that is an e-mail address)");
  return { host, port, username, password, senderName: sender.name, senderEmail: sender.email };
}

function parseSender(from: string): { name: string; email: string } {
  const match = /^(?:"?([^"<]*?)"?\s*)?<([^<>\s]+@[^<>\s]+)>$/.exec(from);
  if (match) return { name: (match[1] ?? "").trim(), email: match[2] as string };
  if (/^[^<>\s"]+@[^<>\s"]+$/.test(from)) return { name: "", email: from };
  throw new Error("SMTP URL `from` must be `Name <address>` or an address");
}

type Transport = ReturnType<typeof createPoolTransport>;

function createPoolTransport(create: typeof createTransport, smtp: SmtpSettings) {
  return create({
    pool: true,
    host: smtp.host,
    port: smtp.port,
    // Port 465 speaks TLS from the first byte; on other ports nodemailer upgrades with STARTTLS when offered.
    secure: smtp.port === 465,
    auth: smtp.username ? { user: smtp.username, pass: smtp.password ?? "" } : undefined,
    maxConnections: 5,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
}

const transportKey = (smtp: SmtpSettings) =>
  JSON.stringify([smtp.host, smtp.port, smtp.username ?? "", smtp.password ?? ""]);

/**
 * Sends mail, caching one pooled transport per SMTP server and account. The cache is bounded: a project that
 * changes its password leaves an old entry behind, so the least recently used one is closed past `maxTransports`.
 */
export function createMailer(options: { maxTransports?: number; sendTimeoutMs?: number } = {}) {
  const maxTransports = options.maxTransports ?? 50;
  const sendTimeoutMs = options.sendTimeoutMs ?? 120_000;
  const transports = new Map<string, Transport>();

  function transportFor(create: typeof createTransport, smtp: SmtpSettings): Transport {
    const key = transportKey(smtp);
    const cached = transports.get(key);
    if (cached) {
      // Re-insert so Map order is least recently used first.
      transports.delete(key);
      transports.set(key, cached);
      return cached;
    }
    const created = createPoolTransport(create, smtp);
    transports.set(key, created);
    while (transports.size > maxTransports) {
      const [oldestKey, oldest] = transports.entries().next().value as [string, Transport];
      transports.delete(oldestKey);
      oldest.close();
    }
    return created;
  }

  return {
    async send(smtp: SmtpSettings, email: OutgoingEmail): Promise<void> {
      // nodemailer (about 15 MiB resident) loads with the first e-mail sent, not at start.
      const { createTransport } = await import("nodemailer");
      const transport = transportFor(createTransport, smtp);
      let timer: NodeJS.Timeout | undefined;
      // Socket timeouts miss a server that trickles its replies; the outbox lease is longer than this limit, so a
      // stalled send fails here before another worker could pick the same e-mail up.
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          transports.delete(transportKey(smtp));
          transport.close({ force: true });
          reject(new Error(`SMTP send timed out after ${sendTimeoutMs} ms`));
        }, sendTimeoutMs);
      });
      try {
        await Promise.race([
          transport.sendMail({
            // An address object, not a hand-built string, so quotes in the sender name cannot break the header.
            from: { name: smtp.senderName, address: smtp.senderEmail },
            messageId: email.messageId,
            to: email.to,
            subject: email.subject,
            html: email.html,
            text: email.text,
            headers: email.headers,
          }),
          timeout,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },

    /** Closes every pooled connection (idle ones at once, busy ones after their current message). */
    close(): void {
      for (const transport of transports.values()) transport.close();
      transports.clear();
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
