// SSO domains against a real DNS server on loopback (dns2, UDP): a team claims a domain, proves it with the TXT
// record Gatehouse names, and only then does the domain route sign-in by e-mail to its connection and may enforce
// SSO (password sign-in, sign-up and e-mailed codes refused with SSO_REQUIRED). One team per domain: another team's
// claim cannot verify, whatever it publishes.
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DnsTxtServer, startDnsTxtServer } from "../testing/dns-txt-server.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { pkcePair } from "../testing/oauth-client.ts";
import { apiRequest, createTestServer, type ProjectKeys, type TestServer } from "../testing/test-server.ts";

const APP = "https://app.example.com";
const DAY = 24 * 60 * 60 * 1000;
const IDP_SSO_URL = "https://idp.corp-a.example/sso";

let dns: DnsTxtServer;
let server: TestServer;
let keys: ProjectKeys;
let teamA: string;
let teamB: string;
let connectionA: string;

type Domain = { id: string; verified: boolean; verification_record: { name: string; value: string } };

const request = apiRequest(() => ({ server, keys }));

const claim = async (teamId: string, domain: string) =>
  expectJson<Domain>(
    await request(`/api/v1/teams/${teamId}/sso-domains`, { method: "POST", body: { domain } }),
    201,
  );
const verify = (teamId: string, domainId: string) =>
  request(`/api/v1/teams/${teamId}/sso-domains/${domainId}/verify`, { method: "POST", body: {} });
const publish = (domain: Domain) =>
  dns.publish(domain.verification_record.name, domain.verification_record.value);

beforeAll(async () => {
  dns = await startDnsTxtServer();
  server = await createTestServer({ ssoDnsServers: [dns.address] });
  ({ keys } = await server.createProject(
    { displayName: "SSO domains", config: { domains: [{ domain: APP, handler_path: "/handler" }] } },
    { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
  ));
  const team = async (name: string) =>
    (
      await expectJson<{ id: string }>(
        await request("/api/v1/teams", { method: "POST", body: { display_name: name } }),
        201,
      )
    ).id;
  teamA = await team("Corp A");
  teamB = await team("Corp B");
  const pems = await generate([{ name: "commonName", value: "corp-a-idp" }], { keySize: 2048 });
  connectionA = (
    await expectJson<{ id: string }>(
      await request(`/api/v1/teams/${teamA}/sso-connections`, {
        method: "POST",
        body: {
          protocol: "saml",
          display_name: "Corp A",
          saml: {
            idp_entity_id: "https://idp.corp-a.example",
            idp_sso_url: IDP_SSO_URL,
            idp_certificates: [pems.cert],
          },
        },
      }),
      201,
    )
  ).id;
});
afterAll(async () => {
  dns?.close();
  await server?.deps.emailWorker.stop();
  await server?.close();
});

const authorizeByEmail = (email: string) =>
  request("/api/v1/auth/sso/authorize", {
    method: "POST",
    type: "client",
    body: {
      email,
      redirect_uri: `${APP}/handler/oauth-callback`,
      state: "s",
      code_challenge: pkcePair().challenge,
    },
  });

describe("domain verification", () => {
  it("verifies a claim only once its TXT record is published, for one team only", async () => {
    const domain = await claim(teamA, "corp-a.example");
    expect(domain.verified).toBe(false);
    expect(domain.verification_record.name).toBe("_gatehouse-challenge.corp-a.example");
    // Unverified: sign-in by e-mail does not route to the team yet.
    await expectKnownError(await authorizeByEmail("jo@corp-a.example"), "SSO_DOMAIN_NOT_FOUND");
    await expectKnownError(await verify(teamA, domain.id), "SSO_DOMAIN_VERIFICATION_FAILED");

    // Team B claims the same domain and publishes its own value first: it proves nothing for team A, and once team A
    // is verified, team B's claim cannot be.
    const rival = await claim(teamB, "corp-a.example");
    expect(rival.verification_record.value).not.toBe(domain.verification_record.value);
    publish(domain);
    const verified = await expectJson<Domain>(await verify(teamA, domain.id));
    expect(verified.verified).toBe(true);
    publish(rival);
    await expectKnownError(await verify(teamB, rival.id), "SSO_DOMAIN_VERIFICATION_FAILED");

    const routed = await expectJson<{ location: string; connection_id: string }>(
      await authorizeByEmail("Jo@Corp-A.example"),
    );
    expect(routed.connection_id).toBe(connectionA);
    expect(routed.location.startsWith(`${IDP_SSO_URL}?SAMLRequest=`)).toBe(true);
  });
});

describe("enforced SSO", () => {
  it("refuses password sign-up, password sign-in and e-mailed codes for the domain's addresses", async () => {
    const domain = await claim(teamA, "enforced.example");
    publish(domain);
    await expectJson(await verify(teamA, domain.id));
    const signUp = (email: string) =>
      request("/api/v1/auth/password/sign-up", {
        method: "POST",
        type: "client",
        body: { email, password: "a long password 123" },
      });
    // Before enforcement a password account of the domain works.
    await expectJson(await signUp("before@enforced.example"));
    await expectJson(
      await request(`/api/v1/teams/${teamA}/sso-domains/${domain.id}`, {
        method: "PATCH",
        body: { enforce_sso: true },
      }),
    );

    await expectKnownError(await signUp("new@enforced.example"), "SSO_REQUIRED", {
      domain: "enforced.example",
    });
    await expectKnownError(
      await request("/api/v1/auth/password/sign-in", {
        method: "POST",
        type: "client",
        body: { email: "before@enforced.example", password: "a long password 123" },
      }),
      "SSO_REQUIRED",
    );
    await expectKnownError(
      await request("/api/v1/auth/otp/send-sign-in-code", {
        method: "POST",
        type: "client",
        body: { email: "before@enforced.example", callback_url: `${APP}/handler/magic-link-callback` },
      }),
      "SSO_REQUIRED",
    );
    // Other domains are untouched.
    await expectJson(await signUp("someone@elsewhere.example"));
  });

  it("lets the domain's addresses in again once enforcement ends, whichever way it ends", async () => {
    const signUp = async (local: string) =>
      request("/api/v1/auth/password/sign-up", {
        method: "POST",
        type: "client",
        body: { email: `${local}@ends.example`, password: "a long password 123" },
      });
    const enforce = async (teamId: string, domainId: string, on: boolean) =>
      expectJson(
        await request(`/api/v1/teams/${teamId}/sso-domains/${domainId}`, {
          method: "PATCH",
          body: { enforce_sso: on },
        }),
      );
    const enforcedClaim = async (teamId: string) => {
      const domain = await claim(teamId, "ends.example");
      publish(domain);
      await expectJson(await verify(teamId, domain.id));
      await enforce(teamId, domain.id, true);
      await expectKnownError(await signUp(`refused-${domain.id}`), "SSO_REQUIRED");
      return domain;
    };
    const teamC = (
      await expectJson<{ id: string }>(
        await request("/api/v1/teams", { method: "POST", body: { display_name: "Corp C" } }),
        201,
      )
    ).id;
    // Turned off.
    const first = await enforcedClaim(teamC);
    await enforce(teamC, first.id, false);
    await expectJson(await signUp("after-off"));
    // The claim deleted.
    await enforce(teamC, first.id, true);
    await expectKnownError(await signUp("on-again"), "SSO_REQUIRED");
    await expectJson(await request(`/api/v1/teams/${teamC}/sso-domains/${first.id}`, { method: "DELETE" }));
    await expectJson(await signUp("after-delete"));
    // The team deleted (the claim goes with it, by the database's cascade).
    await enforcedClaim(teamC);
    await expectJson(await request(`/api/v1/teams/${teamC}`, { method: "DELETE" }));
    await expectJson(await signUp("after-team"));
  });

  it("deletes a project whose team enforces SSO for a domain", async () => {
    const project = await server.createProject({ displayName: "Doomed" });
    const own = apiRequest(() => ({ server, keys: project.keys }));
    const team = await expectJson<{ id: string }>(
      await own("/api/v1/teams", { method: "POST", body: { display_name: "Doomed team" } }),
      201,
    );
    const domain = await expectJson<Domain>(
      await own(`/api/v1/teams/${team.id}/sso-domains`, {
        method: "POST",
        body: { domain: "doomed.example" },
      }),
      201,
    );
    publish(domain);
    await expectJson(
      await own(`/api/v1/teams/${team.id}/sso-domains/${domain.id}/verify`, { method: "POST", body: {} }),
    );
    await expectJson(
      await own(`/api/v1/teams/${team.id}/sso-domains/${domain.id}`, {
        method: "PATCH",
        body: { enforce_sso: true },
      }),
    );
    await server.deps.projects.delete(project.keys.projectId);
    expect(await server.deps.projectsRepo.find(project.keys.projectId)).toBeUndefined();
  });

  it("enforces nothing for a claim that is not verified", async () => {
    const domain = await claim(teamB, "unproven.example");
    await expectJson(
      await request(`/api/v1/teams/${teamB}/sso-domains/${domain.id}`, {
        method: "PATCH",
        body: { enforce_sso: true },
      }),
    );
    await expectJson(
      await request("/api/v1/auth/password/sign-up", {
        method: "POST",
        type: "client",
        body: { email: "free@unproven.example", password: "a long password 123" },
      }),
    );
  });
});
