// [GO] A team's enterprise SSO as a server or admin app manages it: connections, e-mail domains and SCIM tokens. The
// objects are the wire's (snake_case, as the OpenAPI document shows them under "SSO"): they carry the values to paste
// into the identity provider, which are read as they are rather than renamed.
import type { ScimToken, SsoConnection, SsoConnectionTest, SsoDomain } from "@gatehouse/contract";
import { del, jsonBody, patch } from "./context.ts";
import type { RequestOptions } from "./transport.ts";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;
type List<T> = { items: T[] };

export type { ScimToken, SsoConnection, SsoConnectionTest, SsoDomain };
export type CreatedScimToken = ScimToken & { token: string; scim_base_url: string };

export function teamSsoCalls(request: Request, teamId: string) {
  const base = `/teams/${encodeURIComponent(teamId)}`;
  const connection = (id: string) => `${base}/sso-connections/${encodeURIComponent(id)}`;
  const domain = (id: string) => `${base}/sso-domains/${encodeURIComponent(id)}`;
  return {
    async listConnections(): Promise<SsoConnection[]> {
      return (await request<List<SsoConnection>>(`${base}/sso-connections`)).items;
    },
    /** The body of `POST /teams/{team_id}/sso-connections` (OIDC or SAML). */
    createConnection: (body: Record<string, unknown>) =>
      request<SsoConnection>(`${base}/sso-connections`, jsonBody(body)),
    updateConnection: (id: string, body: Record<string, unknown>) =>
      request<SsoConnection>(connection(id), patch(body)),
    deleteConnection: async (id: string) => {
      await request(connection(id), del);
    },
    /**
     * Starts a test sign-in through the connection: send the browser to `location`; it comes back to `returnUrl`
     * (this server's own address, or one the project trusts) with `sso_test_id`. No one is signed in.
     */
    startConnectionTest: (id: string, returnUrl: string) =>
      request<SsoConnectionTest & { location: string }>(
        `${connection(id)}/tests`,
        jsonBody({ return_url: returnUrl }),
      ),
    /** What the identity provider sent in a test sign-in (subject and attributes), or the error. */
    getConnectionTest: (id: string, testId: string) =>
      request<SsoConnectionTest>(`${connection(id)}/tests/${encodeURIComponent(testId)}`),
    async listDomains(): Promise<SsoDomain[]> {
      return (await request<List<SsoDomain>>(`${base}/sso-domains`)).items;
    },
    createDomain: (domainName: string) =>
      request<SsoDomain>(`${base}/sso-domains`, jsonBody({ domain: domainName })),
    /** Looks the TXT record up now: SSO_DOMAIN_VERIFICATION_FAILED says what was found instead. */
    verifyDomain: (id: string) => request<SsoDomain>(`${domain(id)}/verify`, jsonBody({})),
    updateDomain: (id: string, body: { connection_id?: string | null; enforce_sso?: boolean }) =>
      request<SsoDomain>(domain(id), patch(body)),
    deleteDomain: async (id: string) => {
      await request(domain(id), del);
    },
    async listScimTokens(): Promise<ScimToken[]> {
      return (await request<List<ScimToken>>(`${base}/scim-tokens`)).items;
    },
    /** The answer's `token` is shown this once. */
    createScimToken: (description: string) =>
      request<CreatedScimToken>(`${base}/scim-tokens`, jsonBody({ description })),
    revokeScimToken: async (id: string) => {
      await request(`${base}/scim-tokens/${encodeURIComponent(id)}`, del);
    },
  };
}

export type TeamSso = ReturnType<typeof teamSsoCalls>;
