// Runs testing/oidc-provider-server.ts (a real OpenID Connect provider) as a child process on loopback, and plays
// the browser at it: from the authorization URL Gatehouse answered, through the provider's own login and consent
// pages (or their Cancel link), to the redirect back to Gatehouse's callback. Also calls the provider the way an app
// holding a provider token would (userinfo, revocation).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { freePort } from "./server-process.ts";

const script = fileURLToPath(new URL("./oidc-provider-server.ts", import.meta.url));

export type OidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the process printed, for failure messages. */
  output: () => string;
  /** The provider's userinfo answer for an access token (200 with the claims, 401 for a token it does not know). */
  userinfo: (accessToken: string) => Promise<Response>;
  /** Revokes a token at the provider (RFC 7009), as the user would by removing the app's access there. */
  revoke: (token: string) => Promise<void>;
  /** Stops the process; resolves once it exited. */
  stop: () => Promise<void>;
};

/** What the user does at the provider: sign in as `login` and consent, or cancel at the login or consent page. */
export type ProviderChoice = { login: string } | { cancelAt: "login" | "consent"; login?: string };

export async function startOidcProvider(
  options: {
    accessTokenTtlSeconds?: number;
    redirectUris?: string[];
    /** Chosen beforehand when the relying party is configured with the provider's issuer and client first. */
    port?: number;
    clientId?: string;
    clientSecret?: string;
  } = {},
): Promise<OidcProvider> {
  const port = options.port ?? (await freePort());
  const clientId = options.clientId ?? `gatehouse-${randomBytes(4).toString("hex")}`;
  const clientSecret = options.clientSecret ?? randomBytes(24).toString("base64url");
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=gatehouse-source", "--import", "tsx", script],
    {
      env: {
        ...process.env,
        PORT: String(port),
        CLIENT_ID: clientId,
        CLIENT_SECRET: clientSecret,
        ACCESS_TOKEN_TTL: String(options.accessTokenTtlSeconds ?? 3600),
        REDIRECT_URIS: (options.redirectUris ?? []).join(","),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const issuer = `http://localhost:${port}`;
  const deadline = Date.now() + 30_000;
  while (!output.includes(`oidc-provider listening on ${issuer}`)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`oidc-provider did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    issuer,
    clientId,
    clientSecret,
    output: () => output,
    userinfo: (accessToken) => fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } }),
    async revoke(token) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: "POST",
        body: new URLSearchParams({ token, client_id: clientId, client_secret: clientSecret }),
      });
      if (!response.ok) throw new Error(`Revocation answered ${response.status}: ${await response.text()}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A cookie jar by name; the provider scopes its cookies by path, but sending them all does no harm. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    store(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = "", ...attributes] = line.split(";");
        const [name = "", value = ""] = pair.trim().split(/=(.*)/s);
        const expired = attributes.some((a) => {
          const [key = "", val = ""] = a.trim().split("=");
          return (
            (key.toLowerCase() === "expires" && Date.parse(val) <= Date.now()) ||
            (key.toLowerCase() === "max-age" && Number(val) <= 0)
          );
        });
        if (expired || value === "") cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}

const decodeHtml = (value: string) =>
  value
    .replaceAll("&amp;", "&")
    .replaceAll("&#x2F;", "/")
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

/** The first match's group of a pattern the page must contain. */
function find(html: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(html)?.[1];
  if (match === undefined) throw new Error(`The provider's page has no ${what}:\n${html}`);
  return decodeHtml(match);
}

/**
 * Follows the provider from `authorizationUrl` as a browser would, answering its login page (the `login` and
 * `password` fields of the form with `prompt=login`) and its consent page (`prompt=consent`), and answers the first
 * URL outside the provider: Gatehouse's callback with the provider's `code` and `state` (or `error`).
 */
export async function throughOidcProvider(authorizationUrl: string, choice: ProviderChoice): Promise<URL> {
  const jar = cookieJar();
  const origin = new URL(authorizationUrl).origin;
  let request: { url: URL; init?: RequestInit } = { url: new URL(authorizationUrl) };
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(request.url, {
      ...request.init,
      redirect: "manual",
      headers: { ...request.init?.headers, cookie: jar.header() },
    });
    jar.store(response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, request.url);
      if (next.origin !== origin) return next;
      request = { url: next };
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`The provider answered ${response.status}:\n${html}`);
    const prompt = find(html, /name="prompt" value="([^"]+)"/, "prompt field");
    if (prompt !== "login" && prompt !== "consent") throw new Error(`Unexpected prompt ${prompt}:\n${html}`);
    if ("cancelAt" in choice && choice.cancelAt === prompt) {
      request = {
        url: new URL(find(html, /<a href="([^"]+)">\[ Cancel \]<\/a>/, "Cancel link"), request.url),
      };
      continue;
    }
    const action = new URL(find(html, /<form [^>]*action="([^"]+)" method="post">/, "form"), request.url);
    const form = new URLSearchParams({ prompt });
    if (prompt === "login") {
      // The development login page takes any login with any password.
      find(html, /(name="login")/, "login field");
      find(html, /(name="password")/, "password field");
      form.set("login", choice.login ?? "someone");
      form.set("password", "any password");
    }
    request = {
      url: action,
      init: {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      },
    };
  }
  throw new Error("The provider redirected more than 20 times.");
}
