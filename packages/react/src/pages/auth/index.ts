// The sign-in side of the handler pages, for the handler and the package index to export.
export { AuthForm, SignIn, SignUp } from "./auth-form.tsx";
export { EmailVerification } from "./email-verification.tsx";
export { ErrorPage } from "./error-page.tsx";
export { ForgotPassword } from "./forgot-password.tsx";
export { MagicLinkCallback } from "./magic-link-callback.tsx";
export { MfaPage, MfaStep, type MfaStepProps } from "./mfa-step.tsx";
export { OAuthCallback } from "./oauth-callback.tsx";
export { PasswordReset } from "./password-reset.tsx";
export { SignOut } from "./sign-out.tsx";
