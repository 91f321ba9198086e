// [GO] The handler page's calls for an app signing in through the project's OpenID Provider: what the app asks of
// the signed-in user, then accept or deny (the browser continues at the answer's redirect_url); and the user's
// granted apps with revoke (account settings).
import type { Session } from "./session.ts";
import type { Transport } from "./transport.ts";

export type OidcConsentRequest = {
  interaction_id: string;
  client: { client_id: string; display_name: string; logo_url: string | null; first_party: boolean };
  scopes: string[];
  consent_required: boolean;
  /** The app asks for a fresh sign-in: sign out and in again before answering. */
  sign_in_required: boolean;
};

export type OidcGrantedApp = {
  client_id: string;
  display_name: string;
  logo_url: string | null;
  scopes: string[];
};

const path = (interactionId: string) => `/oidc-provider/interactions/${encodeURIComponent(interactionId)}`;

export function getOidcConsent(transport: Transport, session: Session, interactionId: string) {
  return transport.request<OidcConsentRequest>(path(interactionId), { session });
}

/** Accepts or denies; answers the URL the browser must go to next (back through the provider to the app). */
export async function answerOidcConsent(
  transport: Transport,
  session: Session,
  interactionId: string,
  accept: boolean,
): Promise<string> {
  const answer = await transport.request<{ redirect_url: string }>(
    `${path(interactionId)}/${accept ? "accept" : "deny"}`,
    { method: "POST", session },
  );
  return answer.redirect_url;
}

export async function listOidcGrants(transport: Transport, session: Session): Promise<OidcGrantedApp[]> {
  return (await transport.request<{ items: OidcGrantedApp[] }>("/oidc-provider/grants", { session })).items;
}

export async function revokeOidcGrant(
  transport: Transport,
  session: Session,
  clientId: string,
): Promise<void> {
  await transport.request(`/oidc-provider/grants/${encodeURIComponent(clientId)}`, {
    method: "DELETE",
    session,
  });
}
