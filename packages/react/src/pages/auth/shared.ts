// What the sign-in pages share: the query they read, links that keep `after_auth_return_to`, the e-mail and new
// password checks with PRODUCT.md §5's texts, the error texts of codes and passwords, the MFA pause,
// and useFocusInvalid (focus on the first field marked invalid after a submit).
import { type KnownError, knownErrorIs, RETURN_TO_PARAM, type Result, withReturnTo } from "@gatehouse/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import type { Translate } from "../../i18n.ts";
import type { ErrorTexts } from "../../ui/use-action.ts";

/** The server's password rules (WIRE.md §4.1), checked here first so the person learns before sending. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** A query parameter of the current page, read once when the page mounts. */
export function useQueryParam(name: string): string | null {
  const [value] = useState(() => new URLSearchParams(window.location.search).get(name));
  return value;
}

/** A link to another auth page that keeps the `after_auth_return_to` this page carries (and adds none otherwise). */
export function keepReturnTo(url: string): string {
  const current = window.location.href;
  return new URL(current).searchParams.has(RETURN_TO_PARAM) ? withReturnTo(url, current) : url;
}

/** The attempt code of a sign-in paused for the second factor, or null for any other outcome. */
export function mfaAttemptCode(error: unknown): string | null {
  if (!knownErrorIs(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) return null;
  const code = (error as KnownError).details?.attempt_code;
  return typeof code === "string" ? code : null;
}

/** Unwraps a sign-in's Result: the MFA pause goes to `onMfa`, other errors are thrown for useAction to word. */
export function finishOrMfa(result: Result<unknown>, onMfa: (attemptCode: string) => void): void {
  if (result.status === "ok") return;
  const attemptCode = mfaAttemptCode(result.error);
  if (attemptCode === null) throw result.error;
  onMfa(attemptCode);
}

export function checkEmail(email: string, t: Translate): string | null {
  if (!email.trim()) return t("common.required");
  return /^[^\s@]+@[^\s@]+$/.test(email.trim()) ? null : t("common.invalidEmail");
}

/** A new password as typed, and typed again. */
export type NewPassword = { password: string; repeat: string };
export const NO_NEW_PASSWORD: NewPassword = { password: "", repeat: "" };

/**
 * A new password and its repetition (sign-up, reset, account settings); lengths count characters (code points) as
 * the server does. Each field gets its own error: a repetition that differs is named even when the password is wrong.
 */
export function checkNewPassword({ password, repeat }: NewPassword, t: Translate) {
  const length = [...password].length;
  const passwordError = !password
    ? t("common.required")
    : length < PASSWORD_MIN_LENGTH
      ? t("auth.passwordTooShort", { n: PASSWORD_MIN_LENGTH })
      : length > PASSWORD_MAX_LENGTH
        ? t("auth.passwordTooLong", { n: PASSWORD_MAX_LENGTH })
        : null;
  const repeatError = repeat !== password ? t("auth.passwordsDoNotMatch") : null;
  return { password: passwordError, repeat: repeatError };
}

/** The server's password-policy errors: lengths with the limits it names, breached and too-weak passwords. */
export const PASSWORD_ERROR_TEXTS: ErrorTexts = {
  PASSWORD_TOO_SHORT: (error, t) =>
    t("auth.passwordTooShort", { n: Number(error.details?.min_length ?? PASSWORD_MIN_LENGTH) }),
  PASSWORD_TOO_LONG: (error, t) =>
    t("auth.passwordTooLong", { n: Number(error.details?.maxLength ?? PASSWORD_MAX_LENGTH) }),
  PASSWORD_BREACHED: "auth.passwordBreached",
  PASSWORD_TOO_WEAK: "auth.passwordTooWeak",
};

/** The verification-code errors of a link from an e-mail; a cut-off code fails the server's format check. */
export const CODE_ERROR_TEXTS: ErrorTexts = {
  SCHEMA_ERROR: "auth.code.notFound",
  VERIFICATION_CODE_NOT_FOUND: "auth.code.notFound",
  VERIFICATION_CODE_EXPIRED: "auth.code.expired",
  VERIFICATION_CODE_ALREADY_USED: "auth.code.used",
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: "auth.code.maxAttempts",
};

/**
 * A restricted user's refusal: a ban (reason `restricted_by_administrator`, every sign-in of a banned user ends so)
 * is said in words; another reason keeps the server's message.
 */
export const restrictedText = (error: KnownError, t: Translate) =>
  (error.details?.restricted_reason as { type?: string } | undefined)?.type === "restricted_by_administrator"
    ? t("auth.banned")
    : error.humanReadableMessage;

/** The errors any sign-in can end with, whatever the method. */
export const SIGN_IN_ERROR_TEXTS: ErrorTexts = {
  EMAIL_PASSWORD_MISMATCH: "auth.wrongEmailOrPassword",
  RESTRICTED_USER_NOT_ALLOWED: restrictedText,
  SIGN_UP_NOT_ENABLED: "auth.signUpNotEnabled",
  REDIRECT_URL_NOT_WHITELISTED: "auth.redirectNotWhitelisted",
  PASSWORD_AUTHENTICATION_NOT_ENABLED: "auth.passwordNotEnabled",
  PASSKEY_AUTHENTICATION_NOT_ENABLED: "auth.passkey.notEnabled",
  SSO_REQUIRED: "auth.sso.required",
};

/**
 * Focuses the first invalid field of a form after the render that marked it: call `focusInvalid()` when a submit
 * found errors (the fields are marked aria-invalid by Field).
 */
export function useFocusInvalid() {
  const formRef = useRef<HTMLFormElement>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [requests]);
  const focusInvalid = useCallback(() => setRequests((n) => n + 1), []);
  return { formRef, focusInvalid };
}
