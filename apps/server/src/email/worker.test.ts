// The delivery worker against real SMTP peers (smtp-server in this process, mail parsed with mailparser): default
// and per-project servers, the development inbox, retries with backoff, the 24-hour limit, leases and body clean-up.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inTransaction } from "../db/client.ts";
import type { LogFields, Logger } from "../logger.ts";
import { freePort } from "../testing/server-process.ts";
import { type SmtpPeer, startSmtpPeer } from "../testing/smtp-peer.ts";
import { createTestServer, type TestServer } from "../testing/test-server.ts";
import { smtpFromEmailConfig } from "./mailer.ts";
import { createEmailOutbox, type EmailOutbox } from "./outbox.ts";
import { DEFAULT_EMAIL_TEMPLATES, renderTemplate } from "./templates.ts";
import { createEmailWorker, type EmailWorker, firstLink, RETRY_WINDOW_MS, retryDelayMs } from "./worker.ts";

const standardConfig = (port: number) => ({
  email_config: {
    type: "standard" as const,
    host: "127.0.0.1",
    port,
    username: "u",
    password: "p",
    sender_name: "Acme",
    sender_email: "noreply@acme.test",
  },
});

let server: TestServer;
let outbox: EmailOutbox;
let worker: EmailWorker;
let devWorker: EmailWorker;
let defaultPeer: SmtpPeer;
let projectPeer: SmtpPeer;
const peers: SmtpPeer[] = [];
const logs: { msg: string; fields?: LogFields }[] = [];
const captureLogger: Logger = {
  info: (msg, fields) => logs.push({ msg, fields }),
  warn: () => {},
  error: () => {},
};

const getProjectEmail = async (projectId: string) => {
  const project = await server.deps.projectsRepo.find(projectId);
  return {
    smtp: project ? smtpFromEmailConfig(project.config.email_config) : undefined,
    productionMode: project?.isProductionMode ?? true,
  };
};

async function queue(projectId: string, to: string, link = "https://app.test/handler/verify?code=abc&x=1") {
  const rendered = renderTemplate(DEFAULT_EMAIL_TEMPLATES.email_verification, {
    projectDisplayName: "Acme <App>",
    userDisplayName: "",
    emailVerificationLink: link,
  });
  return inTransaction(server.deps.db, (tx) =>
    outbox.enqueue(tx, { projectId, to, templateType: "email_verification", ...rendered }),
  );
}

beforeAll(async () => {
  server = await createTestServer();
  defaultPeer = await startSmtpPeer();
  projectPeer = await startSmtpPeer();
  peers.push(defaultPeer, projectPeer);
  const { db, clock } = { db: server.deps.db, clock: server.clock };
  outbox = createEmailOutbox({ db, clock });
  const defaultSmtp = {
    host: "127.0.0.1",
    port: defaultPeer.port,
    senderName: "Gatehouse",
    senderEmail: "g@gh.test",
  };
  worker = createEmailWorker({ db, clock, logger: server.deps.logger, defaultSmtp, getProjectEmail });
  devWorker = createEmailWorker({ db, clock, logger: captureLogger, getProjectEmail });
});

afterAll(async () => {
  await worker?.stop();
  await devWorker?.stop();
  await Promise.all(peers.map((peer) => peer.close()));
  await server?.close();
});

describe("e-mail worker", () => {
  it("sends a shared project's mail through the default SMTP server", async () => {
    const { project } = await server.createProject();
    const link = "https://app.test/handler/verify?code=first&x=1";
    const { id } = await queue(project.id, "ann@example.com", link);
    await worker.runOnce();

    const [got] = defaultPeer.to("ann@example.com");
    expect(got).toBeDefined();
    const mail = got!.mail;
    expect(mail.subject).toBe("Verify your email at Acme <App>");
    expect(mail.from?.value).toEqual([{ name: "Gatehouse", address: "g@gh.test" }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("ann@example.com");
    expect(mail.html).toContain('href="https://app.test/handler/verify?code=first&amp;x=1"');
    expect(mail.html).toContain("Acme &lt;App&gt;");
    expect(firstLink(mail.text ?? null)).toBe(link);

    const [item] = await outbox.list(project.id, { to: "ann@example.com" });
    expect(item).toMatchObject({
      id,
      status: "sent",
      attempts: 1,
      last_error: null,
      template_type: "email_verification",
    });
    expect(item!.sent_at_millis).toBe(server.clock.now().getTime());
  });

  it("sends a standard project's mail through its own server and sender", async () => {
    const { project } = await server.createProject({ config: standardConfig(projectPeer.port) });
    await queue(project.id, "bob@example.com");
    await worker.runOnce();

    expect(defaultPeer.to("bob@example.com")).toHaveLength(0);
    const [got] = projectPeer.to("bob@example.com");
    expect(got?.user).toBe("u");
    expect(got?.mail.from?.text).toBe('"Acme" <noreply@acme.test>');
    expect((await outbox.list(project.id))[0]?.status).toBe("sent");
  });

  it("keeps mail in the development inbox when no SMTP server is configured", async () => {
    const { project } = await server.createProject();
    const link = "https://app.test/handler/verify?code=dev";
    await queue(project.id, "dev@example.com", link);
    await devWorker.runOnce();

    const [item] = await outbox.list(project.id);
    expect(item).toMatchObject({ status: "kept", attempts: 0, sent_at_millis: null });
    expect(item?.html).toContain(link);
    expect(logs).toContainEqual({
      msg: "e-mail kept in development inbox",
      fields: {
        to: "dev@example.com",
        subject: "Verify your email at Acme <App>",
        template_type: "email_verification",
        link,
      },
    });
  });

  it("keeps a production-mode project's mail without logging its address or link", async () => {
    const { project } = await server.createProject({ isProductionMode: true });
    const link = "https://app.test/handler/verify?code=production-secret";
    const { id } = await queue(project.id, "prod@example.com", link);
    await devWorker.runOnce();

    expect((await outbox.find(id))?.status).toBe("kept");
    expect(logs).toContainEqual({
      msg: "e-mail kept in development inbox",
      fields: { email_id: id, template_type: "email_verification" },
    });
    expect(JSON.stringify(logs)).not.toContain("production-secret");
    expect(JSON.stringify(logs)).not.toContain("prod@example.com");
  });

  it("sends an e-mail cut off mid-exchange again with the same Message-ID", async () => {
    const cut = await startSmtpPeer();
    peers.push(cut);
    const { project } = await server.createProject({ config: standardConfig(cut.port) });
    const { id } = await queue(project.id, "gus@example.com");
    // The receiver takes the message, then the connection dies before the sender hears it was accepted.
    cut.state.dropAfterData = true;
    await worker.runOnce();
    expect(await outbox.find(id)).toMatchObject({ status: "queued", attempts: 1 });

    server.clock.advance(retryDelayMs(1));
    await worker.runOnce();
    expect((await outbox.find(id))?.status).toBe("sent");
    const copies = cut.to("gus@example.com").map((r) => r.mail.messageId);
    expect(copies).toEqual([`<${id}@acme.test>`, `<${id}@acme.test>`]);
  });

  it("retries a rejected send with backoff and delivers once the server recovers", async () => {
    const flaky = await startSmtpPeer();
    peers.push(flaky);
    flaky.state.reject = true;
    const { project } = await server.createProject({ config: standardConfig(flaky.port) });
    const { id } = await queue(project.id, "cy@example.com");
    const queuedAt = server.clock.now().getTime();
    await worker.runOnce();

    const failed = await outbox.find(id);
    expect(failed).toMatchObject({ status: "queued", attempts: 1 });
    expect(failed?.lastError).toContain("mailbox temporarily unavailable");
    expect(failed?.nextAttemptAt.getTime()).toBe(queuedAt + retryDelayMs(1));
    expect(retryDelayMs(1)).toBe(30_000);

    await worker.runOnce(); // not due yet
    expect((await outbox.find(id))?.attempts).toBe(1);

    flaky.state.reject = false;
    server.clock.advance(30_000);
    await worker.runOnce();
    expect(await outbox.find(id)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(flaky.to("cy@example.com")).toHaveLength(1);
  });

  it("gives up 24 hours after queueing, retrying with capped exponential backoff until then", async () => {
    const { project } = await server.createProject({ config: standardConfig(await freePort()) });
    const { id } = await queue(project.id, "dee@example.com");
    const deadline = server.clock.now().getTime() + RETRY_WINDOW_MS;
    const delays: number[] = [];
    let previous = server.clock.now().getTime();
    for (let i = 0; i < 60; i++) {
      await worker.runOnce();
      const row = await outbox.find(id);
      if (row?.status !== "queued") break;
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
      const next = row.nextAttemptAt.getTime();
      expect(next).toBeLessThanOrEqual(deadline);
      delays.push(next - previous);
      server.clock.set(new Date(next));
      previous = next;
    }
    const row = await outbox.find(id);
    expect(row).toMatchObject({ status: "failed" });
    expect(delays.slice(0, 8)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600].map((s) => s * 1000));
    expect(server.clock.now().getTime()).toBe(deadline);
    expect(row?.attempts).toBe(delays.length + 1);
  });

  it("picks up a claimed e-mail again when its lease runs out (a worker died mid-send)", async () => {
    const { project } = await server.createProject();
    const { id } = await queue(project.id, "eve@example.com");
    const now = server.clock.now();
    const claimed = await outbox.claimDue(now, new Date(now.getTime() + 60_000), 100);
    expect(claimed.map((row) => row.id)).toContain(id);

    await worker.runOnce();
    expect(defaultPeer.to("eve@example.com")).toHaveLength(0);
    server.clock.advance(60_000);
    await worker.runOnce();
    expect(defaultPeer.to("eve@example.com")).toHaveLength(1);
    expect((await outbox.find(id))?.status).toBe("sent");
  });

  it("clears the bodies of sent e-mails after 7 days", async () => {
    const { project } = await server.createProject();
    const { id } = await queue(project.id, "fay@example.com");
    await worker.runOnce();
    server.clock.advance(7 * 24 * 3600 * 1000 - 1000);
    await worker.runOnce();
    expect((await outbox.find(id))?.html).not.toBeNull();
    server.clock.advance(2 * 3600 * 1000);
    await worker.runOnce();
    expect(await outbox.find(id)).toMatchObject({ status: "sent", html: null, text: null });
    expect((await outbox.find(id))?.subject).toBe("Verify your email at Acme <App>");
  });

  it("polls on its own after start() and stops cleanly", async () => {
    const { project } = await server.createProject();
    const polling = createEmailWorker({
      db: server.deps.db,
      clock: server.clock,
      logger: server.deps.logger,
      defaultSmtp: { host: "127.0.0.1", port: defaultPeer.port, senderName: "G", senderEmail: "g@gh.test" },
      getProjectEmail,
      pollMs: 20,
    });
    polling.start();
    const { id } = await queue(project.id, "poll@example.com");
    await vi.waitFor(async () => expect((await outbox.find(id))?.status).toBe("sent"), { timeout: 5000 });
    await polling.stop();
    expect(defaultPeer.to("poll@example.com")).toHaveLength(1);
  });

  it("sends queued mail when the queueing transaction commits, not at its next poll", async () => {
    const { project } = await server.createProject();
    const waking = createEmailWorker({
      db: server.deps.db,
      clock: server.clock,
      logger: server.deps.logger,
      defaultSmtp: { host: "127.0.0.1", port: defaultPeer.port, senderName: "G", senderEmail: "g@gh.test" },
      getProjectEmail,
      changes: server.database.changes,
      // Far beyond the wait below: only the announcement can bring the mail out in time.
      pollMs: 60 * 60 * 1000,
    });
    waking.start();
    try {
      // Past the batch that start() runs at once (its timer, set first, fires before this one): the next poll is an
      // hour away.
      await new Promise((resolve) => setTimeout(resolve, 1));
      await waking.runOnce();
      const { id } = await queue(project.id, "wake@example.com");
      await vi.waitFor(async () => expect((await outbox.find(id))?.status).toBe("sent"), { timeout: 10_000 });
      expect(defaultPeer.to("wake@example.com")).toHaveLength(1);
    } finally {
      await waking.stop();
    }
  });
});
