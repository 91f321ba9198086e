// Runs testing/saml-idp-server.ts (a SAML identity provider signing real assertions) as a child process on
// loopback, and plays the browser at it: from the IdP URL Gatehouse answered to the form the IdP posts to our ACS.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "./server-process.ts";

const script = fileURLToPath(new URL("./saml-idp-server.ts", import.meta.url));

/** What the IdP's auto-posting form sends to the ACS. */
export type SamlPost = { acs: string; SAMLResponse: string; RelayState: string | undefined };

export type SamlIdp = {
  origin: string;
  entityId: string;
  metadataUrl: string;
  /** The certificates (PEM) of its three keys: primary, secondary (rotation) and rogue (trusted by no one). */
  certs: { primary: string; secondary: string; rogue: string };
  metadata: (key?: "primary" | "secondary") => Promise<string>;
  /** SP-initiated: answers Gatehouse's IdP URL as `login`, with an attack `variant` or another signing key. */
  signIn: (idpUrl: string, login: string, options?: { variant?: string; key?: string }) => Promise<SamlPost>;
  /** IdP-initiated: an unsolicited response for `acs` and `audience`. */
  unsolicited: (input: {
    acs: string;
    audience: string;
    login: string;
    relayState?: string;
    variant?: string;
  }) => Promise<SamlPost>;
  /** Uploads an SP's metadata to the IdP: assertions for it are encrypted when it publishes an encryption key. */
  registerSp: (metadataXml: string) => Promise<{ entityId: string; encrypts: boolean }>;
  stop: () => Promise<void>;
};

const decode = (value: string) =>
  value.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

/** The IdP's auto-posting form, read as the browser would submit it. */
async function formOf(response: Response): Promise<SamlPost> {
  const html = await response.text();
  if (response.status !== 200) throw new Error(`The IdP answered ${response.status}:\n${html}`);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const saml = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1];
  const relay = /name="RelayState" value="([^"]*)"/.exec(html)?.[1];
  if (!action || !saml) throw new Error(`The IdP's page has no SAML form:\n${html}`);
  return {
    acs: decode(action),
    SAMLResponse: saml,
    RelayState: relay === undefined ? undefined : decode(relay),
  };
}

export async function startSamlIdp(options: { groups?: Record<string, string[]> } = {}): Promise<SamlIdp> {
  const port = await freePort();
  const groups = Object.entries(options.groups ?? {})
    .map(([login, list]) => `${login}=${list.join("|")}`)
    .join(",");
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=gatehouse-source", "--import", "tsx", script],
    {
      env: { ...process.env, PORT: String(port), GROUPS: groups },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!output.includes(`saml-idp listening on ${origin}`)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The SAML IdP did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const certs = (await (await fetch(`${origin}/certs`)).json()) as SamlIdp["certs"];
  return {
    origin,
    entityId: `${origin}/metadata`,
    metadataUrl: `${origin}/metadata`,
    certs,
    metadata: async (key = "primary") => (await fetch(`${origin}/metadata?key=${key}`)).text(),
    async signIn(idpUrl, login, extra = {}) {
      const url = new URL(idpUrl);
      if (url.origin !== origin) throw new Error(`Not this IdP's URL: ${idpUrl}`);
      url.searchParams.set("login", login);
      for (const [name, value] of Object.entries(extra)) if (value) url.searchParams.set(name, value);
      return formOf(await fetch(url));
    },
    async unsolicited(input) {
      const url = new URL(`${origin}/idp-initiated`);
      url.searchParams.set("acs", input.acs);
      url.searchParams.set("audience", input.audience);
      url.searchParams.set("login", input.login);
      if (input.relayState !== undefined) url.searchParams.set("relay_state", input.relayState);
      if (input.variant) url.searchParams.set("variant", input.variant);
      return formOf(await fetch(url));
    },
    async registerSp(metadataXml) {
      const answer = await fetch(`${origin}/sp-metadata`, { method: "POST", body: metadataXml });
      return (await answer.json()) as { entityId: string; encrypts: boolean };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
