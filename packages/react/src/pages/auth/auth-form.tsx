// The sign-in and sign-up pages: exactly the methods the project enables (OAuth buttons, passkey on sign-in, then
// e-mail and password and/or the e-mail code, as tabs when both), the links between the pages (keeping
// `after_auth_return_to`), the MFA step in place when a sign-in pauses, and a note for an already signed-in user.
import { StackAssertionError } from "@gatehouse/sdk";
import { type KeyboardEvent, type ReactNode, useId, useState } from "react";
import { OAuthButtonGroup } from "../../components/oauth-button.tsx";
import { ProjectBrand } from "../../components/project-brand.tsx";
import { useProject, useUser } from "../../hooks.ts";
import { type Translate, useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Divider, FullPageContext, Link, Muted, PageCard } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { CredentialForm } from "./credential-form.tsx";
import { MagicLinkForm } from "./magic-link-form.tsx";
import { MfaStep } from "./mfa-step.tsx";
import { finishOrMfa, keepReturnTo, SIGN_IN_ERROR_TEXTS } from "./shared.ts";
import { SsoSignIn } from "./sso-form.tsx";

type AuthType = "sign-in" | "sign-up";

/** Stack's props of the sign-in and sign-up pages used as components. */
export type AuthPageOptions = Omit<AuthFormProps, "type"> & { fullPage?: boolean };

export function SignIn({ fullPage, ...props }: AuthPageOptions = {}) {
  return withFullPage(fullPage, <AuthForm type="sign-in" {...props} />);
}

export function SignUp({ fullPage, ...props }: AuthPageOptions = {}) {
  return withFullPage(fullPage, <AuthForm type="sign-up" {...props} />);
}

/** A page used as a component: inside the handler it fills the screen; `fullPage` says so explicitly. */
function withFullPage(fullPage: boolean | undefined, page: ReactNode) {
  return fullPage === undefined ? page : <FullPageContext value={fullPage}>{page}</FullPageContext>;
}

export type AuthFormProps = {
  type: AuthType;
  /** The tab shown first when both e-mail and password and the e-mail code are on (Stack's `firstTab`). */
  firstTab?: "magic-link" | "password";
  /** Shown under the methods (terms of service, say), as Stack's `extraInfo`. */
  extraInfo?: ReactNode;
};

export function AuthForm({ type, firstTab = "password", extraInfo }: AuthFormProps) {
  const t = useTranslation();
  const app = useStackApp();
  const { config } = useProject();
  const user = useUser();
  const [attemptCode, setAttemptCode] = useState<string | null>(null);
  // "Already signed in" is for whoever arrives signed in; one who signs in here sees the form until the page leaves.
  const [arrivedSignedIn, setArrivedSignedIn] = useState(user !== null);
  if (user === null && arrivedSignedIn) setArrivedSignedIn(false);
  const signUp = type === "sign-up";
  const title = t(signUp ? "auth.signUp.title" : "auth.signIn.title");

  if (attemptCode) {
    return (
      <PageCard title={t("auth.mfa.title")}>
        <MfaStep attemptCode={attemptCode} onCancel={() => setAttemptCode(null)} />
      </PageCard>
    );
  }
  if (user && arrivedSignedIn) {
    return (
      <PageCard title={title}>
        <AlreadySignedIn name={user.primaryEmail ?? user.displayName ?? null} />
      </PageCard>
    );
  }
  if (signUp && !config.signUpEnabled) {
    return (
      <PageCard title={title}>
        <Alert kind="info">{t("auth.signUp.disabled")}</Alert>
        <Link href={keepReturnTo(app.urls.signIn)}>{t("auth.backToSignIn")}</Link>
      </PageCard>
    );
  }

  const hasButtons = config.oauthProviders.length > 0 || (!signUp && config.passkeyEnabled);
  const hasForms = config.credentialEnabled || config.magicLinkEnabled;
  return (
    <PageCard title={title} top={<ProjectBrand />}>
      {hasButtons && (
        <div className="gh-stack">
          <OAuthButtonGroup type={type} />
          {!signUp && config.passkeyEnabled && <PasskeyButton onMfa={setAttemptCode} />}
        </div>
      )}
      {hasButtons && hasForms && <Divider>{t("common.or")}</Divider>}
      {config.credentialEnabled && config.magicLinkEnabled ? (
        <MethodTabs type={type} onMfa={setAttemptCode} firstTab={firstTab} />
      ) : config.credentialEnabled ? (
        <CredentialForm type={type} onMfa={setAttemptCode} />
      ) : config.magicLinkEnabled ? (
        <MagicLinkForm onMfa={setAttemptCode} />
      ) : null}
      {!hasButtons && !hasForms && <Alert kind="info">{t("auth.noMethods")}</Alert>}
      {!signUp && <SsoSignIn />}
      {extraInfo && <Muted>{extraInfo}</Muted>}
      {signUp ? (
        <Muted>
          {t("auth.signUp.haveAccount")}{" "}
          <Link href={keepReturnTo(app.urls.signIn)}>{t("auth.signUp.toSignIn")}</Link>
        </Muted>
      ) : (
        config.signUpEnabled && (
          <Muted>
            {t("auth.signIn.noAccount")}{" "}
            <Link href={keepReturnTo(app.urls.signUp)}>{t("auth.signIn.toSignUp")}</Link>
          </Muted>
        )
      )}
    </PageCard>
  );
}

/** E-mail and password or e-mail code: an ARIA tab list (arrow keys move between the two tabs). */
function MethodTabs({
  type,
  onMfa,
  firstTab,
}: {
  type: AuthType;
  onMfa: (attemptCode: string) => void;
  firstTab: "magic-link" | "password";
}) {
  const t = useTranslation();
  const id = useId();
  const [method, setMethod] = useState<"password" | "magic-link">(firstTab);
  const tabs = [
    { key: "password", label: t("auth.tabs.password") },
    { key: "magic-link", label: t("auth.tabs.magicLink") },
  ] as const;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    const next = method === "password" ? "magic-link" : "password";
    setMethod(next);
    document.getElementById(`${id}-${next}`)?.focus();
  };
  return (
    <div className="gh-stack">
      <div className="gh-row" role="tablist" aria-label={t("auth.tabs.label")}>
        {tabs.map((tab) => (
          <Button
            key={tab.key}
            id={`${id}-${tab.key}`}
            role="tab"
            aria-selected={method === tab.key}
            aria-controls={`${id}-panel`}
            tabIndex={method === tab.key ? 0 : -1}
            variant={method === tab.key ? "primary" : "secondary"}
            onClick={() => setMethod(tab.key)}
            onKeyDown={onKeyDown}
          >
            {tab.label}
          </Button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${method}`}>
        {method === "password" ? (
          <CredentialForm type={type} onMfa={onMfa} />
        ) : (
          <MagicLinkForm onMfa={onMfa} />
        )}
      </div>
    </div>
  );
}

const passkeyProblem = (error: unknown, t: Translate) =>
  error instanceof StackAssertionError ? t("auth.passkey.unsupported") : null;

function PasskeyButton({ onMfa }: { onMfa: (attemptCode: string) => void }) {
  const t = useTranslation();
  const app = useStackApp();
  const { run, pending, error } = useAction(
    async () => finishOrMfa(await app.signInWithPasskey(), onMfa),
    {
      ...SIGN_IN_ERROR_TEXTS,
      PASSKEY_AUTHENTICATION_FAILED: "auth.passkey.failed",
      PASSKEY_WEBAUTHN_ERROR: "auth.passkey.failed",
    },
    passkeyProblem,
  );
  return (
    <>
      <Button full pending={pending} onClick={() => void run()}>
        {t("auth.passkey.signIn")}
      </Button>
      {error && <Alert>{error}</Alert>}
    </>
  );
}

/** For a user who opens sign-in or sign-up while signed in: go on, or sign out first. */
function AlreadySignedIn({ name }: { name: string | null }) {
  const t = useTranslation();
  const app = useStackApp();
  const user = useUser();
  const go = useAction(() => app.redirectToAfterSignIn());
  const signOut = useAction(async () => {
    await user?.signOut();
  });
  return (
    <div className="gh-stack">
      <Alert kind="info">
        {name ? t("auth.alreadySignedIn", { name }) : t("auth.alreadySignedInAnonymous")}
      </Alert>
      {(go.error ?? signOut.error) && <Alert>{go.error ?? signOut.error}</Alert>}
      <div className="gh-row">
        <Button variant="primary" pending={go.pending} onClick={() => void go.run()}>
          {t("common.continue")}
        </Button>
        <Button pending={signOut.pending} onClick={() => void signOut.run()}>
          {t("auth.signOut")}
        </Button>
      </div>
    </div>
  );
}
