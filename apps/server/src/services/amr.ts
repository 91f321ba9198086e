// [GO] The authentication method references (RFC 8176) of a sign-in, recorded on its session: the OpenID Provider
// hands them to apps as the id_token's `amr`, and derives `acr` from them.

/** RFC 8176 has no value for "signed in at another identity provider"; `fed` is the one in common use (Entra ID). */
const FIRST_FACTOR: Record<string, string[]> = {
  password: ["pwd"],
  // Sign-in codes and magic links: a one-time secret sent to the user.
  otp: ["otp"],
  // A passkey is a hardware- or platform-bound key (the authenticator's own user verification is not reported).
  passkey: ["hwk"],
  oauth: ["fed"],
  sso: ["fed"],
};

/**
 * The method references of a sign-in method as sessions.ts names it (`password`, `otp+totp`, …). A second factor
 * (`+totp`, `+recovery_code`, both one-time codes) adds `otp` and `mfa`. Sessions not begun by the user proving who
 * they are (a server opening one, an impersonation, an anonymous or CLI session) have none.
 */
export function amrOf(method: string | undefined): string[] {
  if (!method) return [];
  const [first = "", second] = method.split("+");
  const amr = [...(FIRST_FACTOR[first] ?? [])];
  if (amr.length > 0 && (second === "totp" || second === "recovery_code")) amr.push("otp", "mfa");
  return [...new Set(amr)];
}

/** The assurance classes the OpenID Provider names in `acr`: one factor, or more than one. */
export const ACR_SINGLE_FACTOR = "urn:gatehouse:acr:1fa";
export const ACR_MULTI_FACTOR = "urn:gatehouse:acr:mfa";

export function acrOf(amr: readonly string[]): string | undefined {
  if (amr.length === 0) return undefined;
  return amr.includes("mfa") ? ACR_MULTI_FACTOR : ACR_SINGLE_FACTOR;
}
