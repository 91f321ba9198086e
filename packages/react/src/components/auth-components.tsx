// Stack's sign-in building blocks: <AuthPage> (the sign-in or sign-up page with Stack's props), <CredentialSignIn>,
// <CredentialSignUp> and <MagicLinkSignIn> (one method's form alone, for an app's own page). Each form pauses for
// the MFA step in place when the account asks for a second factor.
import { type ReactNode, useState } from "react";
import { SignIn, SignUp } from "../pages/auth/auth-form.tsx";
import { CredentialForm } from "../pages/auth/credential-form.tsx";
import { MagicLinkForm } from "../pages/auth/magic-link-form.tsx";
import { MfaStep } from "../pages/auth/mfa-step.tsx";
import { Root } from "../ui/primitives.tsx";

export type AuthPageProps = {
  type: "sign-in" | "sign-up";
  fullPage?: boolean;
  firstTab?: "magic-link" | "password";
  extraInfo?: ReactNode;
  /** Accepted for Stack's signature; our sign-up form always asks for the password twice. */
  noPasswordRepeat?: boolean;
  /** Accepted for Stack's signature; a signed-in visitor is told so rather than sent away. */
  automaticRedirect?: boolean;
};

export function AuthPage({ type, fullPage = false, firstTab, extraInfo }: AuthPageProps) {
  const Page = type === "sign-in" ? SignIn : SignUp;
  return <Page fullPage={fullPage} firstTab={firstTab} extraInfo={extraInfo} />;
}

/** A sign-in form of one method, with the MFA step taking its place when a sign-in pauses for it. */
function WithMfa({ form }: { form: (onMfa: (attemptCode: string) => void) => ReactNode }) {
  const [attemptCode, setAttemptCode] = useState<string | null>(null);
  return (
    <Root>
      <div className="gh-stack">
        {attemptCode ? (
          <MfaStep attemptCode={attemptCode} onCancel={() => setAttemptCode(null)} />
        ) : (
          form(setAttemptCode)
        )}
      </div>
    </Root>
  );
}

export function CredentialSignIn() {
  return <WithMfa form={(onMfa) => <CredentialForm type="sign-in" onMfa={onMfa} />} />;
}

export function CredentialSignUp(_props: { noPasswordRepeat?: boolean }) {
  return <WithMfa form={(onMfa) => <CredentialForm type="sign-up" onMfa={onMfa} />} />;
}

export function MagicLinkSignIn() {
  return <WithMfa form={(onMfa) => <MagicLinkForm onMfa={onMfa} />} />;
}
