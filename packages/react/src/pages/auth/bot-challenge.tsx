// The bot challenge of our sign-up, sign-in and code forms (issue 21): while the project's bot protection is on, a
// Turnstile widget (Cloudflare's script, or the one the project names, which must offer Turnstile's `turnstile.render`)
// whose token goes with the request in Stack's bot-challenge fields. A token passes once, so every send resets it.
import type { BotChallengeAnswer } from "@gatehouse/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { useProject } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import type { ErrorTexts } from "../../ui/use-action.ts";

type TurnstileApi = {
  render(
    element: HTMLElement,
    options: {
      sitekey: string;
      callback: (token: string) => void;
      "expired-callback"?: () => void;
      "error-callback"?: () => void;
    },
  ): string | undefined;
  reset(widgetId?: string): void;
  remove?(widgetId: string): void;
};

type WithTurnstile = { turnstile?: TurnstileApi };

/** The refusals of a challenge, worded for the forms that send one. */
export const BOT_CHALLENGE_ERROR_TEXTS: ErrorTexts = {
  BOT_CHALLENGE_REQUIRED: "auth.botChallenge.required",
  BOT_CHALLENGE_FAILED: "auth.botChallenge.failed",
};

/** Loads the widget script once per page (the DOM remembers it), answering Turnstile's API when it is there. */
function loadTurnstile(url: string): Promise<TurnstileApi> {
  const loaded = (window as WithTurnstile).turnstile;
  if (loaded) return Promise.resolve(loaded);
  return new Promise((resolve, reject) => {
    let script = document.querySelector<HTMLScriptElement>("script[data-gh-bot-challenge]");
    if (!script) {
      script = document.createElement("script");
      script.src = url;
      script.async = true;
      script.dataset.ghBotChallenge = "";
      document.head.append(script);
    }
    const done = () => {
      const api = (window as WithTurnstile).turnstile;
      if (api) resolve(api);
      else reject(new Error("the bot-challenge script offers no turnstile.render"));
    };
    script.addEventListener("load", done, { once: true });
    script.addEventListener("error", () => reject(new Error("the bot-challenge script did not load")), {
      once: true,
    });
  });
}

/**
 * The challenge of one form: `element` goes in the form (null while protection is off), `ready()` is asked before
 * sending (false, with the reason shown under the widget, while it is unsolved), `answer()` goes in the SDK call, and
 * `used()` after it, since a token passes once.
 */
export function useBotChallenge() {
  const t = useTranslation();
  const challenge = useProject().config.botChallenge;
  // A state, not a ref: the form may unmount the widget's box (the code step) and mount a new one, rendered anew.
  const [box, setBox] = useState<HTMLFieldSetElement | null>(null);
  const widget = useRef<{ api: TurnstileApi; id: string | undefined } | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [asked, setAsked] = useState(false);
  const siteKey = challenge?.siteKey ?? null;
  const scriptUrl = challenge?.scriptUrl ?? null;

  useEffect(() => {
    const element = box;
    if (!scriptUrl || !element) return;
    // No site key (a project half set up), or no script: say so to the server, which refuses it when protection is on.
    if (!siteKey) {
      setUnavailable(true);
      return;
    }
    let live = true;
    loadTurnstile(scriptUrl).then(
      (api) => {
        if (!live) return;
        const id = api.render(element, {
          sitekey: siteKey,
          callback: (value) => {
            setToken(value);
            setAsked(false);
          },
          "expired-callback": () => setToken(null),
          "error-callback": () => setToken(null),
        });
        widget.current = { api, id };
      },
      () => live && setUnavailable(true),
    );
    return () => {
      live = false;
      const current = widget.current;
      if (current?.id !== undefined) current.api.remove?.(current.id);
      widget.current = null;
      element.replaceChildren();
    };
  }, [siteKey, scriptUrl, box]);

  const ready = useCallback(() => {
    const solved = !scriptUrl || token !== null || unavailable;
    setAsked(!solved);
    return solved;
  }, [scriptUrl, token, unavailable]);

  const answer = useCallback((): BotChallengeAnswer | undefined => {
    if (!scriptUrl) return undefined;
    return token !== null ? { token } : { unavailable: true };
  }, [scriptUrl, token]);

  const used = useCallback(() => {
    setToken(null);
    const current = widget.current;
    if (current) current.api.reset(current.id);
  }, []);

  const element = scriptUrl ? (
    <div className="gh-stack">
      <fieldset ref={setBox} className="gh-bot-challenge" aria-label={t("auth.botChallenge.label")} />
      {asked && (
        <p className="gh-field-error" role="alert">
          {t("auth.botChallenge.required")}
        </p>
      )}
    </div>
  ) : null;

  return { element, ready, answer, used };
}
