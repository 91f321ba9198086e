// The app's handler pages and redirect targets (PRODUCT.md §2), with Stack Auth's defaults and names, and the rules
// for where a redirect may go: `after_auth_return_to` carried through sign-in, and only trusted targets followed.

export type HandlerUrls = {
  handler: string;
  signIn: string;
  signUp: string;
  signOut: string;
  afterSignIn: string;
  afterSignUp: string;
  afterSignOut: string;
  emailVerification: string;
  passwordReset: string;
  forgotPassword: string;
  home: string;
  oauthCallback: string;
  magicLinkCallback: string;
  accountSettings: string;
  error: string;
  teamInvitation: string;
  mfa: string;
  /** [GO] Where the dashboard's Impersonate hands an impersonation session to the app. */
  impersonation: string;
  /** Where a signed-in user confirms a CLI login (`promptCliLogin`). */
  cliAuthConfirm: string;
  /** Stack's page for a restricted user to finish signing up (e.g. verify their e-mail). */
  onboarding: string;
};
export type HandlerName = keyof HandlerUrls;

/** The page the user was on when sent to sign in, carried in the query so sign-in can send them back. */
export const RETURN_TO_PARAM = "after_auth_return_to";
/** [GO] On the onboarding page: the user has just signed up (it goes on to afterSignUp, not afterSignIn). */
export const SIGNED_UP_PARAM = "signed_up";

/** The handler pages, each `${handler}/<path>` unless set explicitly. */
const HANDLER_PAGES = {
  signIn: "sign-in",
  signUp: "sign-up",
  signOut: "sign-out",
  emailVerification: "email-verification",
  passwordReset: "password-reset",
  forgotPassword: "forgot-password",
  oauthCallback: "oauth-callback",
  magicLinkCallback: "magic-link-callback",
  accountSettings: "account-settings",
  error: "error",
  teamInvitation: "team-invitation",
  mfa: "mfa",
  impersonation: "impersonation",
  cliAuthConfirm: "cli-auth-confirm",
  onboarding: "onboarding",
} as const;

/** Fills in Stack's defaults: handler `/handler`, home `/`, afterSignIn = home, afterSignUp = afterSignIn, afterSignOut = home. */
export function resolveUrls(partial: Partial<HandlerUrls> = {}): HandlerUrls {
  const handler = partial.handler ?? "/handler";
  const base = handler.length > 1 ? handler.replace(/\/+$/, "") : handler;
  const pages = Object.fromEntries(
    Object.entries(HANDLER_PAGES).map(([name, path]) => [
      name,
      partial[name as keyof typeof HANDLER_PAGES] ?? (base === "/" ? `/${path}` : `${base}/${path}`),
    ]),
  ) as Record<keyof typeof HANDLER_PAGES, string>;
  const home = partial.home ?? "/";
  const afterSignIn = partial.afterSignIn ?? home;
  return {
    handler,
    ...pages,
    home,
    afterSignIn,
    afterSignUp: partial.afterSignUp ?? afterSignIn,
    afterSignOut: partial.afterSignOut ?? home,
  };
}

/** The URL of a handler page by name; names come from apps and routers as strings, so unknown ones are an error. */
export function handlerUrl(urls: HandlerUrls, name: string): string {
  const url = Object.hasOwn(urls, name) ? urls[name as HandlerName] : undefined;
  if (!url) throw new Error(`No URL for handler name ${name}`);
  return url;
}

type CurrentUrl = string | URL | null | undefined;

// Resolved against an https placeholder: a path stays on that host, while anything naming a scheme or a host
// (`https://…`, `//evil.com`, `/\evil.com`, `javascript:…`) ends up elsewhere. This is Stack's `isRelative`.
const PLACEHOLDER_ORIGIN = "https://relative.gatehouse.invalid";

/** `new URL` that answers null for what it cannot parse (`URL.parse` needs Node 22). */
function parseUrl(url: string, base: string | URL): URL | null {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
}

export function isRelativeUrl(url: string): boolean {
  const parsed = parseUrl(url, PLACEHOLDER_ORIGIN);
  return parsed?.origin === PLACEHOLDER_ORIGIN;
}

/**
 * Stack's rule: a redirect is followed only if it is relative, or on the current page's own origin (same scheme,
 * host and port, so an https page never sends the user to plain http). Anything else could be an open redirect.
 */
export function isTrustedRedirect(target: string, currentUrl?: CurrentUrl): boolean {
  if (isRelativeUrl(target)) return true;
  if (currentUrl == null) return false;
  const current = new URL(currentUrl);
  const parsed = parseUrl(target, current);
  // Opaque origins ("null": javascript:, data:, file:) are equal as strings but never the same site.
  return parsed !== null && current.origin !== "null" && parsed.origin === current.origin;
}

/** A redirect the SDK refused to follow (PRODUCT.md §2): neither relative nor on the current page's origin. */
export class RedirectNotTrustedError extends Error {
  constructor(readonly url: string) {
    super(`Redirect URL is not trusted: ${url}`);
    this.name = "RedirectNotTrustedError";
  }
}

/** Answers `target` if it may be followed, else throws RedirectNotTrustedError. */
export function assertTrustedRedirect(target: string, currentUrl?: CurrentUrl): string {
  if (!isTrustedRedirect(target, currentUrl)) throw new RedirectNotTrustedError(target);
  return target;
}

/** `url.pathname + search + hash`: how Stack writes a same-origin URL. */
const relativePart = (url: URL) => url.pathname + url.search + url.hash;

/**
 * Adds `after_auth_return_to` to a sign-in, sign-up or sign-out URL: the one the current page already carries (so it
 * survives going from sign-in to sign-up), else the current page itself. A link already carrying one keeps it.
 */
export function withReturnTo(url: string, currentUrl: CurrentUrl): string {
  if (currentUrl == null) return url;
  const current = new URL(currentUrl);
  const next = new URL(url, current);
  const sameOrigin = next.origin === current.origin;
  if (!next.searchParams.has(RETURN_TO_PARAM)) {
    const carried = current.searchParams.get(RETURN_TO_PARAM);
    next.searchParams.set(
      RETURN_TO_PARAM,
      carried ?? (sameOrigin ? relativePart(current) : current.toString()),
    );
  }
  return sameOrigin ? relativePart(next) : next.toString();
}

/**
 * An absolute URL for the server (OAuth redirect and error URLs, e-mail callback links): `target` resolved against the
 * current page, keeping the page's `after_auth_return_to`, without a fragment. Stack's `constructRedirectUrl`.
 */
export function constructRedirectUrl(target: string, currentUrl: string | URL): string {
  const current = new URL(currentUrl);
  const url = new URL(target, current);
  const returnTo = current.searchParams.get(RETURN_TO_PARAM);
  if (returnTo !== null) url.searchParams.set(RETURN_TO_PARAM, returnTo);
  url.hash = "";
  return url.toString();
}

/**
 * Where a signed-in user goes: the `after_auth_return_to` of the current page if it is trusted, else afterSignUp for a
 * new user (magic link, OAuth) and afterSignIn otherwise. The answer is checked like any redirect.
 */
export function afterAuthTarget(
  urls: HandlerUrls,
  currentUrl: CurrentUrl,
  options: { isNewUser: boolean },
): string {
  const returnTo = currentUrl == null ? null : new URL(currentUrl).searchParams.get(RETURN_TO_PARAM);
  if (returnTo !== null && isTrustedRedirect(returnTo, currentUrl)) return returnTo;
  return assertTrustedRedirect(options.isNewUser ? urls.afterSignUp : urls.afterSignIn, currentUrl);
}

/** The confirmation page's URL for a login code, as Stack builds it. */
export function cliAuthConfirmUrl(cliAuthConfirm: string, appUrl: string, loginCode: string): string {
  const url = new URL(cliAuthConfirm, appUrl);
  url.searchParams.set("login_code", loginCode);
  return url.toString();
}
