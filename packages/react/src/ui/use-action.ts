// useAction: how every button and form runs its work. One run at a time (a second click while pending does
// nothing), `pending` for the spinner, and the failure as a sentence for the person: a known error the page expects
// gets the page's own text, a network failure or anything unexpected a general one (logged for the developer).
import { KnownError, RedirectNotTrustedError } from "@gatehouse/sdk";
import { useCallback, useRef, useState } from "react";
import { type MessageKey, type Translate, useTranslation } from "../i18n.ts";

/** Texts for the known errors a page expects, by error code; a function when the text needs the error's details. */
export type ErrorTexts = Partial<Record<string, MessageKey | ((error: KnownError, t: Translate) => string)>>;

/** How a page words an error that is not a known error of the server (or null for the general text). */
export type OtherText = (error: unknown, t: Translate) => string | null;

/**
 * The sentence for an error: the page's text for its code, else the general one for its kind. A redirect the SDK
 * refused is named with its target: the action itself succeeded, but the app's target is not trusted.
 */
export function errorMessage(error: unknown, texts: ErrorTexts, t: Translate, otherText?: OtherText): string {
  if (error instanceof RedirectNotTrustedError) return t("common.redirectNotTrusted", { url: error.url });
  const other = otherText?.(error, t);
  if (other) return other;
  if (error instanceof KnownError) {
    const text = texts[error.errorCode];
    if (typeof text === "function") return text(error, t);
    if (text) return t(text);
    if (error.statusCode === 429) return t("common.tooManyRequests");
    return error.humanReadableMessage || t("common.unexpectedError");
  }
  if (error instanceof TypeError) return t("common.networkError");
  console.error(error);
  return t("common.unexpectedError");
}

export function useAction<Args extends unknown[]>(
  action: (...args: Args) => Promise<void>,
  texts: ErrorTexts = {},
  otherText?: OtherText,
) {
  const t = useTranslation();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const run = useCallback(
    async (...args: Args) => {
      if (running.current) return;
      running.current = true;
      setPending(true);
      setError(null);
      try {
        await action(...args);
      } catch (caught) {
        setError(errorMessage(caught, texts, t, otherText));
      } finally {
        running.current = false;
        setPending(false);
      }
    },
    [action, texts, t, otherText],
  );
  return { run, pending, error, setError };
}
