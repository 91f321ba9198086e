// The SAML 2.0 service provider of an SSO connection, on @node-saml/node-saml: XML signatures and canonicalisation
// are the library's (never ours). It sends AuthnRequests (redirect binding) and validates the IdP's POSTed
// responses: the assertion must be signed by one of the connection's certificates (two during a rotation), with our
// entity id as audience, within its validity (a minute of clock skew). On top of the library we check, on the
// verified assertion only, that it was sent to our ACS (Recipient) in answer to our request (InResponseTo), and we
// read its id for replay protection. Also: the IdP's settings from metadata (XML, or a URL fetched with an SSRF
// guard) and our SP metadata per connection. Encrypted assertions (EncryptedAssertion) are decrypted by the library
// with the connection's own key, whose certificate our SP metadata publishes; the signature is checked on the
// decrypted assertion as on a plain one.

import { KnownErrors } from "@gatehouse/contract";
import type { SAML } from "@node-saml/node-saml";
import { isPublicUrl } from "../webhooks/addresses.ts";
import { type SamlSettings, type SsoUrls, ssoUrls } from "./connections.ts";

/** Identity providers' clocks drift; a minute either way is the usual allowance. */
const CLOCK_SKEW_MS = 60_000;
const METADATA_TIMEOUT_MS = 10_000;
const METADATA_MAX_BYTES = 262_144;
// The XML libraries (node-saml with xml-crypto and xmldom, about 6 MiB of heap) and selfsigned (node-forge) load with
// the first SAML connection that is used or created, as library.ts does for oidc-provider: an idle server without
// SAML connections does not hold them.
let libraries:
  | Promise<{
      saml: typeof import("@node-saml/node-saml");
      xmldom: typeof import("@xmldom/xmldom");
    }>
  | undefined;
const samlLibraries = () => {
  libraries ??= Promise.all([import("@node-saml/node-saml"), import("@xmldom/xmldom")]).then(
    ([saml, xmldom]) => ({ saml, xmldom }),
  );
  return libraries;
};

const SAML_NS = "urn:oasis:names:tc:SAML:2.0:assertion";
const MD_NS = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS_NS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

export type SamlInput = {
  idp_metadata_xml?: string;
  idp_metadata_url?: string;
  idp_entity_id?: string;
  idp_sso_url?: string;
  idp_certificates?: string[];
};

/** A validated assertion: who it names, its attributes, and what replay and binding checks need. */
export type VerifiedAssertion = {
  assertionId: string;
  subject: string;
  attributes: Record<string, unknown>;
  inResponseTo: string | null;
  expiresAt: Date;
};

const invalid = (connectionId: string, reason: string) =>
  KnownErrors.SSO_IDENTITY_PROVIDER_ERROR({ connection_id: connectionId, reason });

const toPem = (cert: string) => {
  const body = cert.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END CERTIFICATE-----`;
};

/** The IdP's entity id, sign-in URL and signing certificates from its metadata document. */
export async function parseIdpMetadata(xml: string): Promise<SamlSettings> {
  const { DOMParser } = (await samlLibraries()).xmldom;
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const entity = doc.getElementsByTagNameNS(MD_NS, "EntityDescriptor")[0];
  const idp = entity?.getElementsByTagNameNS(MD_NS, "IDPSSODescriptor")[0];
  if (!entity || !idp)
    throw KnownErrors.SCHEMA_ERROR({ message: "The metadata has no IdP entity descriptor." });
  const services = Array.from(idp.getElementsByTagNameNS(MD_NS, "SingleSignOnService"));
  const service = services.find((s) => s.getAttribute("Binding") === REDIRECT_BINDING) ?? services[0];
  const certificates = Array.from(idp.getElementsByTagNameNS(MD_NS, "KeyDescriptor"))
    .filter((k) => (k.getAttribute("use") ?? "signing") === "signing")
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS_NS, "X509Certificate")))
    .map((c) => toPem(c.textContent ?? ""));
  const settings = {
    idp_entity_id: entity.getAttribute("entityID") ?? "",
    idp_sso_url: service?.getAttribute("Location") ?? "",
    idp_certificates: certificates.slice(0, 2),
  };
  if (!settings.idp_entity_id || !settings.idp_sso_url || certificates.length === 0) {
    throw KnownErrors.SCHEMA_ERROR({
      message: "The metadata lacks the entity id, the SSO URL or a signing certificate.",
    });
  }
  return settings;
}

export type SamlServiceProviderDeps = {
  baseUrl: string;
  /** Metadata URLs may point at loopback and private addresses (tests; never in production). */
  allowPrivateUrls: boolean;
  /** Opens a connection's sealed private key (the SSO secret box). */
  openKey?: (sealed: string) => string;
};

/** A key pair for a connection's encrypted assertions: RSA 2048, a self-signed certificate valid ten years. */
export async function samlEncryptionKey(): Promise<{ certificate: string; privateKey: string }> {
  const { generate } = await import("selfsigned");
  const now = new Date();
  const pems = await generate([{ name: "commonName", value: "Gatehouse SAML encryption" }], {
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + 10 * 365 * 24 * 60 * 60 * 1000),
  });
  return { certificate: pems.cert, privateKey: pems.private };
}

export function createSamlServiceProvider(deps: SamlServiceProviderDeps) {
  const decryptionKey = (settings: SamlSettings) =>
    settings.sealed_sp_encryption_key && deps.openKey
      ? deps.openKey(settings.sealed_sp_encryption_key)
      : undefined;

  async function library(connectionId: string, settings: SamlSettings, requestId?: string): Promise<SAML> {
    const { SAML, ValidateInResponseTo } = (await samlLibraries()).saml;
    const urls: SsoUrls = ssoUrls(deps.baseUrl, connectionId);
    const decryptionPvk = decryptionKey(settings);
    return new SAML({
      callbackUrl: urls.acs,
      entryPoint: settings.idp_sso_url,
      issuer: urls.spEntityId,
      // Our entity id is per connection: an assertion for another connection (another team) fails here.
      audience: urls.spEntityId,
      idpIssuer: settings.idp_entity_id,
      idpCert: settings.idp_certificates,
      // The assertion itself must be signed: a signed response around an unsigned assertion is not enough.
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      // InResponseTo is checked against the request id kept in our stored flow (shared by every process).
      validateInResponseTo: ValidateInResponseTo.never,
      disableRequestedAuthnContext: true,
      identifierFormat: null,
      // Encrypted assertions are opened with the connection's key; plain ones are still accepted (signed as ever).
      ...(decryptionPvk ? { decryptionPvk } : {}),
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
    });
  }

  /** What the library verified: the assertion's XML, read again only for the checks the library leaves to us. */
  async function readAssertion(
    connectionId: string,
    xml: string,
    acs: string,
    profile: Record<string, unknown>,
  ): Promise<VerifiedAssertion> {
    const { DOMParser } = (await samlLibraries()).xmldom;
    const doc = new DOMParser().parseFromString(xml, "text/xml");
    const assertion = doc.documentElement;
    const confirmation = assertion?.getElementsByTagNameNS(SAML_NS, "SubjectConfirmationData")[0];
    const assertionId = assertion?.getAttribute("ID");
    if (!assertion || !assertionId || !confirmation)
      throw invalid(connectionId, "The assertion is incomplete.");
    if (confirmation.getAttribute("Recipient") !== acs) {
      throw invalid(
        connectionId,
        "The assertion was meant for another recipient (check the ACS URL at the IdP).",
      );
    }
    const conditions = assertion.getElementsByTagNameNS(SAML_NS, "Conditions")[0];
    const until = confirmation.getAttribute("NotOnOrAfter") ?? conditions?.getAttribute("NotOnOrAfter");
    const subject = typeof profile.nameID === "string" ? profile.nameID : "";
    if (!subject) throw invalid(connectionId, "The assertion names no subject.");
    return {
      assertionId,
      subject,
      attributes: (profile.attributes as Record<string, unknown> | undefined) ?? {},
      inResponseTo: confirmation.getAttribute("InResponseTo") || null,
      expiresAt: new Date(until ? Date.parse(until) + CLOCK_SKEW_MS : Date.now() + 24 * 60 * 60 * 1000),
    } satisfies VerifiedAssertion;
  }

  return {
    /** The IdP's settings from the connection's SAML input: metadata XML, a metadata URL, or the values. */
    async settingsFrom(input: SamlInput): Promise<SamlSettings> {
      if (input.idp_metadata_xml) return parseIdpMetadata(input.idp_metadata_xml);
      if (input.idp_metadata_url) {
        // The URL is an administrator's input fetched by the server: never towards our own network.
        if (!deps.allowPrivateUrls && !(await isPublicUrl(input.idp_metadata_url))) {
          throw KnownErrors.SCHEMA_ERROR({ message: "The metadata URL must be a public address." });
        }
        const response = await fetch(input.idp_metadata_url, {
          redirect: "manual",
          signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
        }).catch(() => undefined);
        const text = response?.ok ? await response.text() : undefined;
        if (!text || text.length > METADATA_MAX_BYTES) {
          throw KnownErrors.SCHEMA_ERROR({ message: "The metadata URL did not answer a metadata document." });
        }
        return parseIdpMetadata(text);
      }
      if (!input.idp_entity_id || !input.idp_sso_url || !input.idp_certificates?.length) {
        throw KnownErrors.SCHEMA_ERROR({
          message:
            "Give idp_metadata_xml, idp_metadata_url, or idp_entity_id, idp_sso_url and idp_certificates.",
        });
      }
      return {
        idp_entity_id: input.idp_entity_id,
        idp_sso_url: input.idp_sso_url,
        idp_certificates: input.idp_certificates.map(toPem),
      };
    },

    /** The IdP's sign-in URL with our AuthnRequest (id `requestId`) and the flow's state as RelayState. */
    async authorizationUrl(
      connectionId: string,
      settings: SamlSettings,
      requestId: string,
      relayState: string,
    ) {
      return (await library(connectionId, settings, requestId)).getAuthorizeUrlAsync(
        relayState,
        undefined,
        {},
      );
    },

    /** Validates a POSTed SAMLResponse; any failure is SSO_IDENTITY_PROVIDER_ERROR with what failed. */
    async validate(
      connectionId: string,
      settings: SamlSettings,
      samlResponse: string,
    ): Promise<VerifiedAssertion> {
      let result: Awaited<ReturnType<SAML["validatePostResponseAsync"]>>;
      try {
        result = await (await library(connectionId, settings)).validatePostResponseAsync({
          SAMLResponse: samlResponse,
        });
      } catch (error) {
        throw invalid(connectionId, error instanceof Error ? error.message : "The response is invalid.");
      }
      const xml = result.profile?.getAssertionXml?.();
      if (!result.profile || !xml) throw invalid(connectionId, "The response holds no assertion.");
      return readAssertion(connectionId, xml, ssoUrls(deps.baseUrl, connectionId).acs, result.profile);
    },

    /** Our SP metadata for the connection, to upload at the IdP. */
    async metadata(connectionId: string, settings: SamlSettings): Promise<string> {
      return (await library(connectionId, settings)).generateServiceProviderMetadata(
        settings.sp_encryption_certificate ?? null,
        null,
      );
    },
  };
}

export type SamlServiceProvider = ReturnType<typeof createSamlServiceProvider>;
