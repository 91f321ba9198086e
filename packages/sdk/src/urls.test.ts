// Handler URLs: Stack's defaults and overrides, the trusted-redirect rule, and after_auth_return_to end to end.
import { describe, expect, it } from "vitest";
import {
  afterAuthTarget,
  assertTrustedRedirect,
  constructRedirectUrl,
  handlerUrl,
  isTrustedRedirect,
  RedirectNotTrustedError,
  resolveUrls,
  withReturnTo,
} from "./urls.ts";

describe("resolveUrls", () => {
  it("fills in Stack's defaults", () => {
    expect(resolveUrls()).toEqual({
      handler: "/handler",
      signIn: "/handler/sign-in",
      signUp: "/handler/sign-up",
      signOut: "/handler/sign-out",
      afterSignIn: "/",
      afterSignUp: "/",
      afterSignOut: "/",
      emailVerification: "/handler/email-verification",
      passwordReset: "/handler/password-reset",
      forgotPassword: "/handler/forgot-password",
      home: "/",
      oauthCallback: "/handler/oauth-callback",
      magicLinkCallback: "/handler/magic-link-callback",
      accountSettings: "/handler/account-settings",
      error: "/handler/error",
      teamInvitation: "/handler/team-invitation",
      mfa: "/handler/mfa",
      impersonation: "/handler/impersonation",
      cliAuthConfirm: "/handler/cli-auth-confirm",
      onboarding: "/handler/onboarding",
    });
  });

  it("puts the pages under another handler path, with or without a trailing slash", () => {
    expect(resolveUrls({ handler: "/auth" }).signIn).toBe("/auth/sign-in");
    expect(resolveUrls({ handler: "/auth/" }).passwordReset).toBe("/auth/password-reset");
    expect(resolveUrls({ handler: "/" }).oauthCallback).toBe("/oauth-callback");
  });

  it("chains the redirect targets: afterSignIn = home, afterSignUp = afterSignIn, afterSignOut = home", () => {
    const fromHome = resolveUrls({ home: "/dashboard" });
    expect([fromHome.afterSignIn, fromHome.afterSignUp, fromHome.afterSignOut]).toEqual([
      "/dashboard",
      "/dashboard",
      "/dashboard",
    ]);
    const fromAfterSignIn = resolveUrls({ home: "/h", afterSignIn: "/in" });
    expect([fromAfterSignIn.afterSignUp, fromAfterSignIn.afterSignOut]).toEqual(["/in", "/h"]);
    expect(resolveUrls({ afterSignUp: "/welcome" }).afterSignIn).toBe("/");
  });

  it("keeps explicit pages and ignores undefined ones", () => {
    const urls = resolveUrls({ signIn: "/login", handler: "/h", mfa: undefined });
    expect(urls.signIn).toBe("/login");
    expect(urls.signUp).toBe("/h/sign-up");
    expect(urls.mfa).toBe("/h/mfa");
  });
});

describe("handlerUrl", () => {
  it("answers a page by name", () => {
    expect(handlerUrl(resolveUrls(), "teamInvitation")).toBe("/handler/team-invitation");
  });

  it("refuses unknown names, inherited properties included", () => {
    expect(() => handlerUrl(resolveUrls(), "nope")).toThrow("No URL for handler name nope");
    expect(() => handlerUrl(resolveUrls(), "toString")).toThrow("No URL for handler name toString");
  });

  it("refuses a page configured as empty", () => {
    expect(() => handlerUrl(resolveUrls({ signIn: "" }), "signIn")).toThrow("No URL for handler name signIn");
  });
});

describe("trusted redirects", () => {
  const page = "https://app.example.com/account?tab=1";

  it("trusts relative URLs, with or without a current page", () => {
    for (const target of ["/", "/a/b?c=d#e", "page", "?x=1", "#top"]) {
      expect(isTrustedRedirect(target, page), target).toBe(true);
      expect(isTrustedRedirect(target), target).toBe(true);
    }
  });

  it("trusts the current page's own origin", () => {
    expect(isTrustedRedirect("https://app.example.com/other", page)).toBe(true);
    expect(isTrustedRedirect("http://localhost:3000/x", "http://localhost:3000/")).toBe(true);
  });

  it("refuses other hosts, ports, http from https, protocol-relative and script URLs", () => {
    for (const target of [
      "https://evil.example/x",
      "https://app.example.com.evil.example/",
      "https://app.example.com:8443/",
      "http://app.example.com/x",
      "//evil.example/x",
      "/\\evil.example/x",
      "javascript:alert(1)",
      "data:text/html,hi",
    ]) {
      expect(isTrustedRedirect(target, page), target).toBe(false);
    }
    expect(isTrustedRedirect("https://app.example.com/")).toBe(false);
  });

  it("does not treat two opaque origins as the same", () => {
    expect(isTrustedRedirect("javascript:alert(1)", "data:text/plain,x")).toBe(false);
  });

  it("assertTrustedRedirect answers the target or throws", () => {
    expect(assertTrustedRedirect("/ok", page)).toBe("/ok");
    expect(() => assertTrustedRedirect("https://evil.example/", page)).toThrow(
      new RedirectNotTrustedError("https://evil.example/"),
    );
    expect(() => assertTrustedRedirect("javascript:alert(1)", page)).toThrow("Redirect URL is not trusted");
  });
});

describe("after_auth_return_to", () => {
  const urls = resolveUrls({ afterSignIn: "/in", afterSignUp: "/welcome" });

  it("withReturnTo carries the current page into a sign-in URL", () => {
    expect(withReturnTo("/handler/sign-in", "https://app.example.com/private?x=1#h")).toBe(
      `/handler/sign-in?after_auth_return_to=${encodeURIComponent("/private?x=1#h")}`,
    );
  });

  it("withReturnTo passes on the return target the current page already carries", () => {
    const signIn = "https://app.example.com/handler/sign-in?after_auth_return_to=%2Fprivate";
    expect(withReturnTo("/handler/sign-up", signIn)).toBe("/handler/sign-up?after_auth_return_to=%2Fprivate");
  });

  it("withReturnTo keeps a return target the link already has, and leaves the URL alone without a page", () => {
    expect(withReturnTo("/handler/sign-in?after_auth_return_to=%2Fmine", "https://app.example.com/x")).toBe(
      "/handler/sign-in?after_auth_return_to=%2Fmine",
    );
    expect(withReturnTo("/handler/sign-in", undefined)).toBe("/handler/sign-in");
  });

  it("withReturnTo gives an absolute URL and return target across origins", () => {
    expect(withReturnTo("https://auth.example.com/sign-in", "https://app.example.com/p")).toBe(
      `https://auth.example.com/sign-in?after_auth_return_to=${encodeURIComponent("https://app.example.com/p")}`,
    );
  });

  it("is honoured after sign-in, for new and returning users alike", () => {
    const signInPage = `https://app.example.com${withReturnTo(urls.signIn, "https://app.example.com/private?x=1")}`;
    expect(afterAuthTarget(urls, signInPage, { isNewUser: false })).toBe("/private?x=1");
    expect(afterAuthTarget(urls, signInPage, { isNewUser: true })).toBe("/private?x=1");
  });

  it("without one, new users go to afterSignUp and others to afterSignIn", () => {
    const page = "https://app.example.com/handler/sign-in";
    expect(afterAuthTarget(urls, page, { isNewUser: true })).toBe("/welcome");
    expect(afterAuthTarget(urls, page, { isNewUser: false })).toBe("/in");
    expect(afterAuthTarget(urls, null, { isNewUser: false })).toBe("/in");
  });

  it("an untrusted one is ignored", () => {
    const page = `https://app.example.com/handler/sign-in?after_auth_return_to=${encodeURIComponent("https://evil.example/")}`;
    expect(afterAuthTarget(urls, page, { isNewUser: false })).toBe("/in");
    const script = "https://app.example.com/handler/sign-in?after_auth_return_to=javascript%3Aalert(1)";
    expect(afterAuthTarget(urls, script, { isNewUser: true })).toBe("/welcome");
  });

  it("a configured target on another origin is refused", () => {
    const elsewhere = resolveUrls({ afterSignIn: "https://elsewhere.example/" });
    expect(() => afterAuthTarget(elsewhere, "https://app.example.com/", { isNewUser: false })).toThrow(
      "Redirect URL is not trusted",
    );
  });

  it("constructRedirectUrl makes an absolute URL that keeps the page's return target and drops the fragment", () => {
    const page = "https://app.example.com/handler/sign-in?after_auth_return_to=%2Fprivate&other=1#frag";
    expect(constructRedirectUrl("/handler/oauth-callback", page)).toBe(
      "https://app.example.com/handler/oauth-callback?after_auth_return_to=%2Fprivate",
    );
    expect(constructRedirectUrl("/handler/error#x", "https://app.example.com/")).toBe(
      "https://app.example.com/handler/error",
    );
  });
});
