// The constructor options every app shares, with the environment-variable fallbacks of Stack Auth's SDK, and the
// count of app instances (more than ten usually means an app is created per render or per request by mistake).

/** The API base URL when neither the options nor the environment name one: a local Gatehouse. */
export const DEFAULT_BASE_URL = "http://localhost:8102";

export const SDK_VERSION = "0.1.0";
export const CLIENT_VERSION = `js @gatehouse/sdk@${SDK_VERSION}`;

/** How the app navigates: the browser's location, or a function (a router's push). */
export type RedirectMethod = "window" | "none" | { navigate: (to: string) => void };

export type BaseAppOptions = {
  projectId?: string;
  publishableClientKey?: string;
  /** The Gatehouse server's origin (e.g. `https://auth.example.com`); `/api/v1` is added. */
  baseUrl?: string | { browser: string; server: string };
  extraRequestHeaders?: Record<string, string>;
  redirectMethod?: RedirectMethod;
  /** For tests and unusual runtimes. */
  fetch?: typeof fetch;
};

type Env = Record<string, string | undefined>;

/** `process.env` where it exists (Node, bundlers that inline it); nothing in a plain browser. */
function environment(): Env {
  const processLike = (globalThis as { process?: { env?: Env } }).process;
  return processLike?.env ?? {};
}

const first = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v !== "");

export const isBrowser = () => typeof (globalThis as { document?: unknown }).document !== "undefined";

export function resolveProjectId(option: string | undefined): string {
  const env = environment();
  const id = first(option, env.NEXT_PUBLIC_STACK_PROJECT_ID, env.STACK_PROJECT_ID);
  if (!id) {
    throw new Error(
      "No project ID given. Pass `projectId`, or set NEXT_PUBLIC_STACK_PROJECT_ID (the internal project is `internal`).",
    );
  }
  return id;
}

export function resolvePublishableClientKey(option: string | undefined): string | undefined {
  const env = environment();
  return first(option, env.NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY, env.STACK_PUBLISHABLE_CLIENT_KEY);
}

export function resolveSecretServerKey(option: string | undefined): string {
  const key = first(option, environment().STACK_SECRET_SERVER_KEY);
  if (!key)
    throw new Error("No secret server key given. Pass `secretServerKey`, or set STACK_SECRET_SERVER_KEY.");
  return key;
}

export function resolveSuperSecretAdminKey(option: string | undefined): string | undefined {
  return first(option, environment().STACK_SUPER_SECRET_ADMIN_KEY);
}

/** The option, the environment (browser- or server-specific first, as Stack Auth's SDK reads it), or the default. */
export function resolveBaseUrl(option: BaseAppOptions["baseUrl"]): string {
  const env = environment();
  const browser = isBrowser();
  const fromOption =
    typeof option === "string" ? option : option && (browser ? option.browser : option.server);
  const specific = browser
    ? first(
        env.NEXT_PUBLIC_BROWSER_STACK_API_URL,
        env.NEXT_PUBLIC_STACK_API_URL_BROWSER,
        env.STACK_API_URL_BROWSER,
      )
    : first(
        env.NEXT_PUBLIC_SERVER_STACK_API_URL,
        env.NEXT_PUBLIC_STACK_API_URL_SERVER,
        env.STACK_API_URL_SERVER,
      );
  const url =
    first(
      fromOption,
      specific,
      env.NEXT_PUBLIC_STACK_API_URL,
      env.STACK_API_URL,
      env.NEXT_PUBLIC_STACK_URL,
    ) ?? DEFAULT_BASE_URL;
  return url.replace(/\/+$/, "");
}

const MAX_QUIET_INSTANCES = 10;
let instances = 0;

let warned = false;

/** Counts a new app; past ten, warns (once per process) that apps should be created once and shared. */
export function countAppInstance(warn: (message: string) => void = console.warn): void {
  instances++;
  if (instances > MAX_QUIET_INSTANCES && !warned) {
    warned = true;
    warn(
      `${instances} Gatehouse app instances have been created. Create one app per project and share it; ` +
        "creating one per request or per render wastes memory and network.",
    );
  }
}
