// <StackHandler>: every handler page of PRODUCT.md §2 under the app's handler path (default /handler), chosen from
// the browser's path, with no router. A page the app moved elsewhere (urls.signIn = "/login") is sent there with its
// query; an unknown name gets a page-not-found card. Pages suspend while they load: one loading card stands in for
// them.
import { handlerUrl, type StackClientApp } from "@gatehouse/sdk";
import { type ComponentType, Suspense, useEffect, useSyncExternalStore } from "react";
import { ImpersonationBanner } from "./components/impersonation-banner.tsx";
import { useTranslation } from "./i18n.ts";
import { AccountSettings } from "./pages/account-settings/index.tsx";
import {
  EmailVerification,
  ErrorPage,
  ForgotPassword,
  MagicLinkCallback,
  MfaPage,
  OAuthCallback,
  PasswordReset,
  SignIn,
  SignOut,
  SignUp,
} from "./pages/auth/index.ts";
import { CliAuthConfirm } from "./pages/cli-auth-confirm.tsx";
import { ImpersonationPage } from "./pages/impersonation.tsx";
import { OidcConsent } from "./pages/oidc-consent.tsx";
import { Onboarding } from "./pages/onboarding.tsx";
import { TeamCreation } from "./pages/team-creation.tsx";
import { TeamInvitation } from "./pages/team-invitation.tsx";
import { UnknownRoute } from "./pages/unknown-route.tsx";
import { StackProvider, useOptionalStackContext, useStackApp } from "./provider.tsx";
import { ErrorBoundary } from "./ui/error-boundary.tsx";
import { FullPageContext, PageCard, Spinner } from "./ui/primitives.tsx";

/** The page of each handler path, by the SDK's URL name (HandlerUrls). */
const PAGES: Record<string, [name: string | null, page: ComponentType]> = {
  "sign-in": ["signIn", SignIn],
  "sign-up": ["signUp", SignUp],
  "sign-out": ["signOut", SignOut],
  "email-verification": ["emailVerification", EmailVerification],
  "password-reset": ["passwordReset", PasswordReset],
  "forgot-password": ["forgotPassword", ForgotPassword],
  "oauth-callback": ["oauthCallback", OAuthCallback],
  "magic-link-callback": ["magicLinkCallback", MagicLinkCallback],
  "account-settings": ["accountSettings", AccountSettings],
  error: ["error", ErrorPage],
  "team-invitation": ["teamInvitation", TeamInvitation],
  mfa: ["mfa", MfaPage],
  impersonation: ["impersonation", ImpersonationPage],
  "cli-auth-confirm": ["cliAuthConfirm", CliAuthConfirm],
  onboarding: ["onboarding", Onboarding],
  // The SDK's HandlerUrls has no team-creation URL to move it to: it always lives under the handler path.
  "team-creation": [null, TeamCreation],
  // [GO] The OpenID Provider sends apps' sign-ins here (apps/server/src/oidc-provider/): a fixed handler path.
  "oidc-consent": [null, OidcConsent],
};

const subscribeToHistory = (onChange: () => void) => {
  window.addEventListener("popstate", onChange);
  return () => window.removeEventListener("popstate", onChange);
};
const currentPath = () => window.location.pathname;

export type StackHandlerProps = {
  /** The app, when the handler is not inside a StackProvider (inside one, the provider's app is used). */
  app?: StackClientApp;
  /** The path to route (for server rendering or tests); the browser's path otherwise. */
  location?: string;
  /** Pages fill the screen (default), or sit as a card in the app's layout. */
  fullPage?: boolean;
};

export function StackHandler({ app, fullPage = true, ...props }: StackHandlerProps) {
  const handler = (
    <FullPageContext value={fullPage}>
      <HandlerRoutes {...props} />
    </FullPageContext>
  );
  if (useOptionalStackContext() || !app) return handler;
  return <StackProvider app={app}>{handler}</StackProvider>;
}

function HandlerRoutes({ location }: { location?: string }) {
  const app = useStackApp();
  const browserPath = useSyncExternalStore(subscribeToHistory, currentPath, () => location ?? "/");
  const path = location ?? browserPath;
  const base = app.urls.handler.replace(/\/+$/, "");
  const rest = path.startsWith(`${base}/`) ? path.slice(base.length + 1).replace(/\/+$/, "") : path;
  const entry = Object.hasOwn(PAGES, rest) ? PAGES[rest] : undefined;
  if (!entry) return <UnknownRoute path={path} />;
  const [name, Page] = entry;
  const configured = name ? handlerUrl(app.urls, name) : `${base}/${rest}`;
  // The app gave this page a URL of its own: the handler's default path forwards there.
  if (configured !== `${base}/${rest}`) return <Forward to={configured} />;
  // What a page throws unexpectedly is shown on the error page instead of an empty screen. An operator acting as
  // the user sees it on every page.
  return (
    <>
      <ImpersonationBanner />
      <ErrorBoundary fallback={(error) => <ErrorPage message={error.message} />}>
        <Suspense fallback={<Loading />}>
          <Page />
        </Suspense>
      </ErrorBoundary>
    </>
  );
}

function Forward({ to }: { to: string }) {
  useEffect(() => {
    window.location.replace(to + window.location.search);
  }, [to]);
  return <Loading />;
}

function Loading() {
  const t = useTranslation();
  return (
    <PageCard title={t("common.loading")}>
      <Spinner label={t("common.loading")} />
    </PageCard>
  );
}
