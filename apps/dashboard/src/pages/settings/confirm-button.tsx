// A destructive action behind an in-place confirmation: the button turns into "Are you sure? [Yes, …] [Cancel]";
// Escape or Cancel go back (focus returns to the button), and a refusal of the server is shown next to it.
import { Alert, Button } from "@gatehouse/react/ui";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useFormAction } from "../form.ts";

export function ConfirmButton({
  label,
  children,
  confirmText,
  question = "Are you sure?",
  action,
}: {
  /** The trigger's accessible name, naming what it acts on ("Delete team_admin"). */
  label: string;
  /** The trigger's visible text ("Delete"). */
  children: ReactNode;
  /** The confirming button's text ("Yes, delete"). */
  confirmText: string;
  question?: string;
  action: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const run = useFormAction(action);
  const box = useRef<HTMLSpanElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    // Focus the confirming button when asking, and the trigger again after a cancel.
    if (asking || wasAsking.current) box.current?.querySelector("button")?.focus();
    wasAsking.current = asking;
  }, [asking]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the question cancels it.
    <span
      ref={box}
      className="dash-confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape" && asking) {
          event.stopPropagation();
          setAsking(false);
        }
      }}
    >
      {asking ? (
        <>
          <span className="dash-confirm-question">{question}</span>
          <Button variant="danger" pending={run.pending} onClick={() => void run.run()}>
            {confirmText}
          </Button>
          <Button onClick={() => setAsking(false)}>Cancel</Button>
          {run.error && <Alert>{run.error}</Alert>}
        </>
      ) : (
        <Button variant="danger" aria-label={label} onClick={() => setAsking(true)}>
          {children}
        </Button>
      )}
    </span>
  );
}
