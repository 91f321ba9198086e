// `npm start` (scripts/start.ts) as a newcomer meets it: the banner prints the demo project's keys, the demo project
// belongs to the instance's operators, so the first operator's session lists it and reads its users and e-mails,
// and a webhook endpoint on the developer's own machine is accepted.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNpmStart } from "../npm-start.ts";
import { apiCaller, type Json } from "../support.ts";

let started: Awaited<ReturnType<typeof startNpmStart>>;
const call = apiCaller(() => started.server);
let operatorToken = "";

beforeAll(async () => {
  // No dashboard build: these requests need none, and nothing is built into the repository.
  started = await startNpmStart("npm-start", join(import.meta.dirname, "no-dashboard-build"));
}, 180_000);

afterAll(async () => {
  await started?.stop();
});

const client = (projectId: string, pck: string, accessToken?: string) => ({
  "x-stack-access-type": "client",
  "x-stack-project-id": projectId,
  "x-stack-publishable-client-key": pck,
  ...(accessToken ? { "x-stack-access-token": accessToken } : {}),
});
const operatorAdmin = (projectId: string) => ({
  "x-stack-access-type": "admin",
  "x-stack-project-id": projectId,
  "x-stack-admin-access-token": operatorToken,
});
const keyAdmin = (projectId: string, sak: string) => ({
  "x-stack-access-type": "admin",
  "x-stack-project-id": projectId,
  "x-stack-super-secret-admin-key": sak,
});

/** The e-mails of the demo project's outbox to `to`, once there is one (the outbox is written with the sign-up). */
async function demoEmails(headers: Record<string, string>, to: string): Promise<Json[]> {
  for (let tries = 0; tries < 50; tries++) {
    const list = await call("GET", `/internal/emails?to=${encodeURIComponent(to)}`, headers);
    const items = list.items as Json[];
    if (items.length > 0) return items;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No e-mail to ${to} in the demo project's outbox`);
}

describe("npm start", () => {
  it("prints the demo project's keys beside the internal ones, and they are the demo's", async () => {
    const { demoKeys, server } = started;
    expect(demoKeys.pck).toMatch(/^pck_[0-9a-z]{45}$/);
    expect(demoKeys.ssk).toMatch(/^ssk_[0-9a-z]{45}$/);
    expect(demoKeys.sak).toMatch(/^sak_[0-9a-z]{45}$/);
    expect(Object.values(demoKeys)).not.toContain(server.keys.pck);
    const project = await call("GET", "/projects/current", client("demo", demoKeys.pck));
    expect(project.id).toBe("demo");
    await call("GET", "/users", {
      "x-stack-access-type": "server",
      "x-stack-project-id": "demo",
      "x-stack-secret-server-key": demoKeys.ssk,
    });
  });

  it("lists the demo project for the first operator, owned by the internal project's owner team", async () => {
    const internalKey = client("internal", started.server.keys.pck);
    const signedUp = await call("POST", "/auth/password/sign-up", internalKey, {
      email: "operator@example.com",
      password: "operator password",
    });
    operatorToken = String(signedUp.access_token);
    const internal = await call("GET", "/projects/current", keyAdmin("internal", started.server.keys.sak));
    const owned = await call(
      "GET",
      "/internal/projects",
      client("internal", started.server.keys.pck, operatorToken),
    );
    const demo = (owned.items as Json[]).find((project) => project.id === "demo");
    expect(demo).toMatchObject({ display_name: "Gatehouse demo", owner_team_id: internal.owner_team_id });
  });

  it("lets the operator read the users and e-mails of people who signed up in the demo", async () => {
    const email = "newcomer@example.com";
    const signedUp = await call("POST", "/auth/password/sign-up", client("demo", started.demoKeys.pck), {
      email,
      password: "newcomer password",
      verification_callback_url: `${started.demoUrl}/handler/email-verification`,
    });

    const users = await call("GET", "/users", operatorAdmin("demo"));
    expect((users.items as Json[]).map((user) => [user.id, user.primary_email])).toEqual([
      [signedUp.user_id, email],
    ]);
    const [verification] = await demoEmails(operatorAdmin("demo"), email);
    expect(verification).toMatchObject({ to: email, template_type: "email_verification" });
    expect(String(verification?.text)).toContain(`${started.demoUrl}/handler/email-verification?code=`);

    // The README's way for code: the demo's own admin key. The internal one administers only the internal project.
    const byKey = await demoEmails(keyAdmin("demo", started.demoKeys.sak), email);
    expect(byKey.map((item) => item.id)).toEqual([verification?.id]);
    const refused = await call(
      "GET",
      "/internal/emails",
      keyAdmin("demo", started.server.keys.sak),
      undefined,
      401,
    );
    expect(refused.code).toBe("INVALID_SUPER_SECRET_ADMIN_KEY");
  });

  it("accepts a webhook endpoint on the developer's own machine", async () => {
    const endpoint = await call(
      "POST",
      "/internal/webhooks/endpoints",
      operatorAdmin("demo"),
      { url: "http://127.0.0.1:9/hooks" },
      201,
    );
    expect(endpoint.url).toBe("http://127.0.0.1:9/hooks");
  });
});
