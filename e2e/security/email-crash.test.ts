// Issue 15 item 7, black-box: the server is killed (SIGKILL) while the SMTP peer holds a reset e-mail's exchange
// open; a new server process sends it again once the lease has run out, with the same Message-ID, so the receiver
// can drop the copy. The lease (10 minutes) is run out by moving the row's next attempt to now, as time would.
import { openPglite } from "@gatehouse/server/db/client";
import { type SmtpPeer, startSmtpPeer } from "@gatehouse/server/testing/smtp-peer";
import { adminQuery } from "@gatehouse/server/testing/test-database";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Cluster, internalHeaders, startCluster } from "./cluster.ts";

let peer: SmtpPeer;
let cluster: Cluster;
const EMAIL = "crash@example.com";

beforeAll(async () => {
  peer = await startSmtpPeer();
  cluster = await startCluster(1, {
    GATEHOUSE_SMTP_URL: `smtp://127.0.0.1:${peer.port}?from=noreply@gatehouse.test`,
  });
});
afterAll(async () => {
  await cluster?.stop();
  await peer?.close();
});

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(condition(), what).toBe(true);
}

/** Runs out the lease of every queued e-mail, in the database the killed server left. */
async function runOutLeases() {
  const statement = "update email_outbox set next_attempt_at = now() where status = 'queued'";
  if ("url" in cluster.database) {
    await adminQuery(cluster.database.url, statement);
  } else {
    const database = await openPglite({ dataDir: cluster.database.pgliteDir });
    await database.db.execute(statement).finally(() => database.close());
  }
}

it("sends an e-mail cut off by kill -9 again with the same Message-ID", { timeout: 90_000 }, async () => {
  const first = cluster.servers[0]!;
  const headers = { ...internalHeaders(first, "server"), "content-type": "application/json" };
  const created = await fetch(`${first.baseUrl}/api/v1/users`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      primary_email: EMAIL,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: "the old password",
    }),
  });
  expect(created.status).toBe(201);

  peer.state.holdAfterData = true;
  const sent = await fetch(`${first.baseUrl}/api/v1/auth/password/send-reset-code`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email: EMAIL, callback_url: "http://localhost:3000/reset" }),
  });
  expect(sent.status).toBe(200);
  await until(() => peer.to(EMAIL).length === 1, "the peer holds the first copy");

  first.child.kill("SIGKILL");
  await new Promise((resolve) => first.child.once("exit", resolve));
  peer.state.holdAfterData = false;
  await runOutLeases();
  await cluster.startAnother();
  await until(() => peer.to(EMAIL).length === 2, "the new process sends it again");

  const [held, resent] = peer.to(EMAIL).map((r) => r.mail);
  expect(resent?.subject).toBe(held?.subject);
  expect(held?.messageId).toMatch(/^<[0-9a-f-]{36}@gatehouse\.test>$/);
  expect(resent?.messageId).toBe(held?.messageId);
});
