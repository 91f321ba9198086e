// ConfirmButton: a destructive (or weighty) action in two steps. The button asks its question in place —
// "question [confirm] [Cancel]" — and only the second, explicit button acts. Escape or Cancel back out; focus moves
// to the confirming button and back to the opener, so the keyboard never gets lost. The texts come from the caller
// (the handler pages pass their translations); Cancel defaults to the translated "Cancel".
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n.ts";
import { Alert, Button } from "./primitives.tsx";
import { type OtherText, useAction } from "./use-action.ts";

export type ConfirmButtonProps = {
  /** The opener's text ("Remove"). */
  label: ReactNode;
  /** The opener's accessible name when its text alone is ambiguous in a list ("Remove" → "Remove a@b.c"). */
  name?: string;
  /** What is about to happen, asked in place. */
  question: ReactNode;
  /** The confirming button's text (the opener's by default). */
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  /** danger (default), or secondary for a weighty but not destructive action (its confirming button is primary). */
  variant?: "danger" | "secondary";
  /** The action is running elsewhere (a useAction of the caller's): both buttons show progress. */
  pending?: boolean;
  /** An error of the caller's to show in place. */
  error?: string | null;
  /**
   * The action. When it settles the question closes; when it throws, the question stays with the error in place
   * (worded by `errorText`, as useAction does).
   */
  onConfirm: () => Promise<unknown> | unknown;
  errorText?: OtherText;
};

export function ConfirmButton({
  label,
  name,
  question,
  confirmLabel = label,
  cancelLabel,
  variant = "danger",
  pending = false,
  error = null,
  onConfirm,
  errorText,
}: ConfirmButtonProps) {
  const t = useTranslation();
  const [asking, setAsking] = useState(false);
  const confirm = useAction(
    async () => {
      await onConfirm();
      setAsking(false);
    },
    undefined,
    errorText,
  );
  const busy = pending || confirm.pending;
  const shown = confirm.error ?? error;
  // The first button of the box is the opener, or the confirming button while asking: focus follows the step.
  const box = useRef<HTMLSpanElement & HTMLFieldSetElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking || wasAsking.current) box.current?.querySelector("button")?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const cancel = () => {
    if (busy) return;
    confirm.setError(null);
    setAsking(false);
  };
  if (!asking) {
    return (
      <span ref={box} className="gh-confirm">
        <Button variant={variant} pending={busy} aria-label={name} onClick={() => setAsking(true)}>
          {label}
        </Button>
        {shown && <Alert>{shown}</Alert>}
      </span>
    );
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    cancel();
  };
  return (
    // Escape anywhere in the question cancels it.
    <fieldset ref={box} className="gh-confirm" onKeyDown={onKeyDown}>
      <legend className="gh-text">{question}</legend>
      <Button
        variant={variant === "danger" ? "danger" : "primary"}
        pending={busy}
        onClick={() => void confirm.run()}
      >
        {confirmLabel}
      </Button>
      <Button onClick={cancel}>{cancelLabel ?? t("common.cancel")}</Button>
      {shown && <Alert>{shown}</Alert>}
    </fieldset>
  );
}
