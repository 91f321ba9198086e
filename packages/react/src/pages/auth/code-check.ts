// useCodeCheck: checks the `code` of an e-mailed link once when the page opens (without consuming it), for the
// pages that show a form only for a valid link. React's StrictMode runs effects twice; the answer is the same.
import type { Result } from "@gatehouse/sdk";
import { useEffect, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { errorMessage } from "../../ui/use-action.ts";
import { CODE_ERROR_TEXTS } from "./shared.ts";

export type CodeCheck = { state: "checking" } | { state: "valid" } | { state: "invalid"; message: string };

type Outcome = { state: "checking" } | { state: "valid" } | { state: "invalid"; error: unknown };

/** `check` must be stable (the SDK's code checks are). */
export function useCodeCheck(
  code: string | null,
  check: (code: string) => Promise<Result<unknown>>,
): CodeCheck {
  const t = useTranslation();
  const [outcome, setOutcome] = useState<Outcome>({ state: "checking" });
  useEffect(() => {
    if (!code) return;
    let current = true;
    check(code).then(
      (result) => {
        if (current)
          setOutcome(result.status === "ok" ? { state: "valid" } : { state: "invalid", error: result.error });
      },
      (error: unknown) => {
        if (current) setOutcome({ state: "invalid", error });
      },
    );
    return () => {
      current = false;
    };
  }, [code, check]);
  if (!code) return { state: "invalid", message: t("auth.code.missing") };
  if (outcome.state !== "invalid") return outcome;
  return { state: "invalid", message: errorMessage(outcome.error, CODE_ERROR_TEXTS, t) };
}
