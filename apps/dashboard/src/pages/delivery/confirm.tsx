// Shared bricks of the e-mail, API key and webhook screens: the in-place "Are you sure?" step of a destructive
// action (Escape cancels), an HTML body shown in a sandbox (no scripts, no same-origin access), and date texts.
import { Alert, Button } from "@gatehouse/react/ui";
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A button whose action runs only after a second, explicit click: the first shows `question` with the confirming
 * button (focused) and Cancel. Escape or Cancel go back and return focus to the first button.
 */
export function ConfirmButton({
  label,
  name,
  question,
  confirmLabel,
  variant = "danger",
  pending = false,
  error,
  onConfirm,
}: {
  label: string;
  /** The opener's accessible name when the label alone is ambiguous in a list ("Revoke" → "Revoke CI keys"). */
  name?: string;
  question: ReactNode;
  confirmLabel: string;
  variant?: "danger" | "secondary" | "primary";
  pending?: boolean;
  error?: string | null;
  onConfirm: () => Promise<unknown> | unknown;
}) {
  const [asking, setAsking] = useState(false);
  // The first button of the box is the opener, or the confirming button while asking: focus follows the step.
  const box = useRef<HTMLSpanElement & HTMLFieldSetElement>(null);
  const moveFocus = useRef(false);
  useEffect(() => {
    if (asking || moveFocus.current) box.current?.querySelector("button")?.focus();
    moveFocus.current = false;
  }, [asking]);
  const cancel = () => {
    moveFocus.current = true;
    setAsking(false);
  };
  if (!asking) {
    return (
      <span className="dash-confirm" ref={box}>
        <Button
          variant={variant === "primary" ? "secondary" : variant}
          aria-label={name}
          onClick={() => setAsking(true)}
        >
          {label}
        </Button>
        {error && <Alert>{error}</Alert>}
      </span>
    );
  }
  return (
    // Escape anywhere in the question cancels it.
    <fieldset
      className="dash-ask"
      ref={box}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === "Escape") cancel();
      }}
    >
      <legend className="dash-confirm-question">{question}</legend>
      <Button
        variant={variant === "secondary" ? "primary" : variant}
        pending={pending}
        onClick={async () => {
          await onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </Button>
      <Button onClick={cancel}>Cancel</Button>
      {error && <Alert>{error}</Alert>}
    </fieldset>
  );
}

/** An e-mail's or a preview's HTML in a sandboxed frame: it cannot run scripts or reach the dashboard. */
export function HtmlFrame({ html, title }: { html: string; title: string }) {
  return <iframe className="dash-html-frame" sandbox="" srcDoc={html} title={title} />;
}

export const dateTime = (date: Date | null) =>
  date ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—";
