// A small SAML 2.0 identity provider for tests, run as its own process on loopback:
//   PORT=4001 node --conditions=gatehouse-source --import tsx apps/server/src/testing/saml-idp-server.ts
// Real signatures: assertions are signed with xml-crypto (RSA-SHA256, exclusive c14n) by one of three keys made at
// start ("primary", "secondary" for rotation, "rogue" that no connection trusts). Users are `<login>@saml.example.com`
// with groups from GROUPS (comma-separated, per login: `login=group1|group2`).
//   GET /metadata[?key=]          the IdP's metadata (entity id, redirect-binding SSO URL, the key's certificate)
//   GET /certs                    {primary, secondary, rogue} certificates (PEM), for tests
//   GET /sso?SAMLRequest=&RelayState=[&login=&variant=&key=]
//                                 SP-initiated: without `login` a sign-in page (or, with the IdP's session cookie
//                                 from an earlier sign-in, at once); with it, the auto-posting form
//   POST /sso                     the sign-in page's form
//   GET /idp-initiated?acs=&audience=&login=[&relay_state=&variant=&key=]   an unsolicited response
//   POST /sp-metadata             an SP's metadata, as an administrator uploads it: when it publishes an encryption
//                                 certificate, assertions for that SP (its entity id as audience) are encrypted to it
//                                 with xml-encryption (AES-256-GCM, RSA-OAEP), after signing, as IdPs do
// `variant` makes the attacks: unsigned, tampered (NameID changed after signing), expired, wrong-audience,
// wrong-recipient, wrapped (XML signature wrapping: a forged assertion beside the signed one), response-signed (the
// Response signed, the assertion inside it not).
// Started and driven by testing/saml-idp-process.ts.
import { randomBytes, X509Certificate } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { inflateRawSync } from "node:zlib";
import { generate } from "selfsigned";
import { SignedXml } from "xml-crypto";

type XmlEnc = {
  encrypt: (
    content: string,
    options: Record<string, unknown>,
    callback: (error: Error | null, result: string) => void,
  ) => void;
};
const xmlenc = createRequire(import.meta.url)("xml-encryption") as XmlEnc;

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error("Give the port as PORT.");
const origin = `http://127.0.0.1:${port}`;
const entityId = `${origin}/metadata`;

type Key = { key: string; cert: string };
async function makeKey(name: string): Promise<Key> {
  const pems = await generate([{ name: "commonName", value: `saml-idp-${name}` }], {
    keySize: 2048,
  });
  return { key: pems.private, cert: pems.cert };
}
const primary = await makeKey("primary");
const rogue = await makeKey("rogue");
const keys: Record<string, Key> = { primary, secondary: await makeKey("secondary"), rogue };

/** SP entity id → the encryption certificate (PEM) its uploaded metadata published. */
const encryptionCerts = new Map<string, string>();

function registerSp(xml: string): { entityId: string; encrypts: boolean } {
  const spEntityId = /entityID="([^"]+)"/.exec(xml)?.[1] ?? "";
  const cert =
    /<(?:md:)?KeyDescriptor[^>]*use="encryption"[^>]*>[\s\S]*?<(?:ds:)?X509Certificate>([^<]+)</.exec(
      xml,
    )?.[1];
  if (spEntityId && cert) {
    const body = cert.replace(/\s+/g, "");
    encryptionCerts.set(
      spEntityId,
      `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`,
    );
  }
  return { entityId: spEntityId, encrypts: Boolean(cert) };
}

function encrypt(assertion: string, cert: string): Promise<string> {
  return new Promise((resolve, reject) =>
    xmlenc.encrypt(
      assertion,
      {
        rsa_pub: new X509Certificate(cert).publicKey.export({ type: "spki", format: "pem" }),
        pem: cert,
        encryptionAlgorithm: "http://www.w3.org/2009/xmlenc11#aes256-gcm",
        keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        disallowEncryptionWithInsecureAlgorithm: true,
      },
      (error, result) =>
        error ? reject(error) : resolve(`<saml:EncryptedAssertion>${result}</saml:EncryptedAssertion>`),
    ),
  );
}

const certBody = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
const xmlEscape = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
const id = () => `_${randomBytes(16).toString("hex")}`;

function metadata(key: Key): string {
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody(key.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${origin}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

type Respond = {
  acs: string;
  audience: string;
  login: string;
  inResponseTo?: string;
  variant: string;
  key: Key;
};

function assertionXml(r: Respond, assertionId: string, nameId: string): string {
  const now = Date.now() - (r.variant === "expired" ? 2 * 60 * 60 * 1000 : 0);
  const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
  const audience = r.variant === "wrong-audience" ? "https://someone-else.example.com/sp" : r.audience;
  const recipient = r.variant === "wrong-recipient" ? "https://someone-else.example.com/acs" : r.acs;
  const inResponseTo = r.inResponseTo ? ` InResponseTo="${xmlEscape(r.inResponseTo)}"` : "";
  const groups = (process.env.GROUPS ?? "")
    .split(",")
    .map((entry) => entry.split("="))
    .find(([login]) => login === r.login)?.[1]
    ?.split("|") ?? ["staff"];
  const values = (list: string[]) =>
    list.map((v) => `<saml:AttributeValue>${xmlEscape(v)}</saml:AttributeValue>`).join("");
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${entityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlEscape(nameId)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${at(5 * 60 * 1000)}" Recipient="${xmlEscape(recipient)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-60 * 1000)}" NotOnOrAfter="${at(5 * 60 * 1000)}"><saml:AudienceRestriction><saml:Audience>${xmlEscape(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email">${values([`${r.login}@saml.example.com`])}</saml:Attribute><saml:Attribute Name="name">${values([`SAML ${r.login}`])}</saml:Attribute><saml:Attribute Name="groups">${values(groups)}</saml:Attribute></saml:AttributeStatement></saml:Assertion>`;
}

function sign(xml: string, key: Key, element = "Assertion"): string {
  const signer = new SignedXml({
    privateKey: key.key,
    publicCert: key.cert,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: `//*[local-name(.)='${element}']`,
    transforms: [
      "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
      "http://www.w3.org/2001/10/xml-exc-c14n#",
    ],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  signer.computeSignature(xml, {
    location: { reference: `//*[local-name(.)='${element}']/*[local-name(.)='Issuer']`, action: "after" },
  });
  return signer.getSignedXml();
}

/** The base64 SAMLResponse for a sign-in, with the variant's flaw. */
async function samlResponse(r: Respond): Promise<string> {
  const email = `${r.login}@saml.example.com`;
  const assertionId = id();
  let assertion = assertionXml(r, assertionId, email);
  if (r.variant !== "unsigned" && r.variant !== "response-signed")
    assertion = sign(assertion, r.variant === "rogue" ? rogue : r.key);
  if (r.variant === "tampered") assertion = assertion.replace(`>${email}<`, ">ceo@saml.example.com<");
  let extensions = "";
  if (r.variant === "wrapped") {
    // The signed assertion hides in Extensions; the forged one, which a naive SP would read, takes its place.
    extensions = `<samlp:Extensions>${assertion}</samlp:Extensions>`;
    assertion = assertionXml(r, id(), "ceo@saml.example.com");
  }
  const encryptTo = encryptionCerts.get(r.audience);
  if (encryptTo && r.variant !== "wrapped") assertion = await encrypt(assertion, encryptTo);
  const inResponseTo = r.inResponseTo ? ` InResponseTo="${xmlEscape(r.inResponseTo)}"` : "";
  const response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${xmlEscape(r.acs)}"${inResponseTo}><saml:Issuer>${entityId}</saml:Issuer>${extensions}<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
  // A signed response around an unsigned assertion: the SP must still require the assertion's own signature.
  return Buffer.from(r.variant === "response-signed" ? sign(response, r.key, "Response") : response).toString(
    "base64",
  );
}

function postForm(
  res: ServerResponse,
  acs: string,
  samlResponseValue: string,
  relayState: string | null,
  login?: string,
) {
  const relay =
    relayState === null ? "" : `<input type="hidden" name="RelayState" value="${xmlEscape(relayState)}"/>`;
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    ...(login ? { "set-cookie": sessionCookie(login) } : {}),
  });
  res.end(
    `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${xmlEscape(acs)}"><input type="hidden" name="SAMLResponse" value="${samlResponseValue}"/>${relay}<noscript><button>Continue</button></noscript></form></body></html>`,
  );
}

/** The AuthnRequest of the redirect binding: its id, where to answer and who asks. */
function readRequest(encoded: string): { id: string; acs: string; issuer: string } {
  const xml = inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
  const attr = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(xml)?.[1] ?? "";
  const issuer = /<(?:saml:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? "";
  return { id: attr("ID"), acs: attr("AssertionConsumerServiceURL"), issuer };
}

/** The IdP's own session: who signed in at it in this browser (a real IdP's single sign-on). */
const sessionCookie = (login: string) =>
  `idp_session=${encodeURIComponent(login)}; Path=/; HttpOnly; SameSite=Lax`;
const sessionOf = (req: IncomingMessage) => {
  const value = /(?:^|;\s*)idp_session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
  return value ? decodeURIComponent(value) : null;
};

async function spInitiated(params: URLSearchParams, res: ServerResponse, session: string | null = null) {
  const request = readRequest(params.get("SAMLRequest") ?? "");
  const login = params.get("login") ?? session;
  if (!login) {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    const hidden = ["SAMLRequest", "RelayState"]
      .filter((name) => params.has(name))
      .map((name) => `<input type="hidden" name="${name}" value="${xmlEscape(params.get(name) ?? "")}"/>`)
      .join("");
    res.end(
      `<!doctype html><html><body><h1>Test IdP sign-in</h1><form method="post" action="/sso">${hidden}<label>Login <input name="login"/></label><button type="submit">Sign in</button></form></body></html>`,
    );
    return;
  }
  postForm(
    res,
    request.acs,
    await samlResponse({
      acs: request.acs,
      audience: request.issuer,
      login,
      inResponseTo: request.id,
      variant: params.get("variant") ?? "",
      key: keys[params.get("key") ?? "primary"] ?? primary,
    }),
    params.get("RelayState"),
    login,
  );
}

async function body(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", origin);
  const key = keys[url.searchParams.get("key") ?? "primary"] ?? primary;
  if (url.pathname === "/metadata") {
    res.writeHead(200, { "content-type": "application/samlmetadata+xml" });
    res.end(metadata(key));
  } else if (url.pathname === "/certs") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(Object.fromEntries(Object.entries(keys).map(([name, k]) => [name, k.cert]))));
  } else if (url.pathname === "/sso" && req.method === "POST") {
    await spInitiated(await body(req), res);
  } else if (url.pathname === "/sso") {
    await spInitiated(url.searchParams, res, sessionOf(req));
  } else if (url.pathname === "/sp-metadata" && req.method === "POST") {
    let xml = "";
    for await (const chunk of req) xml += chunk;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(registerSp(xml)));
  } else if (url.pathname === "/idp-initiated") {
    const p = url.searchParams;
    const acs = p.get("acs") ?? "";
    const login = p.get("login") ?? "someone";
    postForm(
      res,
      acs,
      await samlResponse({
        acs,
        audience: p.get("audience") ?? "",
        login,
        variant: p.get("variant") ?? "",
        key,
      }),
      p.get("relay_state"),
      login,
    );
  } else {
    res.writeHead(404).end();
  }
}).listen(port, "127.0.0.1", () => console.log(`saml-idp listening on ${origin}`));
