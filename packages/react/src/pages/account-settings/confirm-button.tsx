// A destructive action in two steps: the button asks its question in place, and only the second, explicit button
// acts. Escape or Cancel backs out; focus moves to the confirming button and back, so the keyboard never gets lost.
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { Button } from "../../ui/primitives.tsx";

type ConfirmButtonProps = {
  /** The text of both buttons, e.g. "Remove". */
  label: string;
  /** What is about to happen, asked in place. */
  question: string;
  pending: boolean;
  onConfirm: () => Promise<void> | void;
};

export function ConfirmButton({ label, question, pending, onConfirm }: ConfirmButtonProps) {
  const t = useTranslation();
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLDivElement>(null);
  const openerRef = useRef<HTMLDivElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.querySelector("button")?.focus();
    else if (wasAsking.current) openerRef.current?.querySelector("button")?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <div ref={openerRef} className="gh-row">
        <Button variant="danger" pending={pending} onClick={() => setAsking(true)}>
          {label}
        </Button>
      </div>
    );
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && !pending) setAsking(false);
  };
  return (
    <div ref={confirmRef} className="gh-row">
      <span className="gh-text">{question}</span>
      <Button
        variant="danger"
        pending={pending}
        onKeyDown={onKeyDown}
        onClick={async () => {
          await onConfirm();
          setAsking(false);
        }}
      >
        {label}
      </Button>
      <Button onKeyDown={onKeyDown} onClick={() => !pending && setAsking(false)}>
        {t("common.cancel")}
      </Button>
    </div>
  );
}
