// For the pages' component tests: a real StackClientApp talking to a real Gatehouse app in process (the server's
// test server on a fresh database), with a project configured per suite. Navigations are recorded instead of
// followed, and the project's e-mails are read from its outbox, the way a person reads their inbox.
import { StackClientApp } from "@gatehouse/sdk";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "@gatehouse/server/testing/test-server";

export type LiveProjectConfig = Record<string, unknown>;

export type LiveSetup = Awaited<ReturnType<typeof createLive>>;

let addresses = 0;

/**
 * A fetch that hands requests to the test server's app without a socket. Each fetch function is one client
 * address (X-Forwarded-For), so rate limits stay per test.
 */
export function inProcessFetch(server: TestServer): typeof fetch {
  const address = `10.200.${(++addresses >> 8) & 255}.${addresses & 255}`;
  return async (input, init) => {
    const request = new Request(input as string, init);
    const headers = new Headers(request.headers);
    headers.set("x-forwarded-for", address);
    const url = new URL(request.url);
    return server.app.request(url.pathname + url.search, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.text(),
    });
  };
}

/** A test server and one project on it; `config` is the project's config (sign-in methods, flags). */
export async function createLive(config: LiveProjectConfig = {}) {
  // Test identities for the shared OAuth buttons: the development provider is only ever on when asked for.
  const server = await createTestServer({ developmentOAuth: ["*"] });
  const { keys } = await server.createProject({
    displayName: "Live test",
    config: {
      credential_enabled: true,
      magic_link_enabled: true,
      allow_localhost: true,
      domains: [],
      ...config,
    } as never,
  });
  const fetchApp = inProcessFetch(server);

  const navigations: string[] = [];
  const newApp = (urls: Record<string, string> = {}) =>
    new StackClientApp({
      projectId: keys.projectId,
      publishableClientKey: keys.pck,
      baseUrl: "http://localhost:8102",
      tokenStore: "memory",
      fetch: fetchApp,
      urls,
      redirectMethod: { navigate: (to: string) => void navigations.push(to) },
    });

  /** The admin (project key) call of a test: `admin("GET", "/users")`. */
  async function admin(method: string, path: string, body?: unknown) {
    const res = await server.request(`/api/v1${path}`, {
      method,
      headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : {};
  }

  /** The newest e-mail sent to `to` (the development inbox). */
  async function lastEmail(to: string): Promise<{ subject: string; text: string; html: string }> {
    const list = await admin("GET", `/internal/emails?to=${encodeURIComponent(to)}`);
    const email = list.items[0];
    if (!email) throw new Error(`No e-mail to ${to}`);
    return email;
  }

  /** The `code` query parameter of the first link in the newest e-mail to `to`. */
  async function codeFromEmail(to: string): Promise<string> {
    const email = await lastEmail(to);
    const match = /[?&]code=([a-z0-9]+)/i.exec(email.text ?? email.html);
    if (!match) throw new Error(`No code link in the e-mail to ${to}: ${email.text}`);
    return match[1] as string;
  }

  return {
    server,
    keys: keys as ProjectKeys,
    app: newApp(),
    newApp,
    navigations,
    admin,
    lastEmail,
    codeFromEmail,
    close: () => server.close(),
  };
}
