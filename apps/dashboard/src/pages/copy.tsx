// Copying a value the operator needs elsewhere (a key, a `.env` block, a callback URL): a button that copies it, and a
// polite status that says it did, or that copying failed and the text is to be selected by hand.
import { Button } from "@gatehouse/react/ui";
import { useState } from "react";
import { useDashboardTranslation } from "../messages.ts";

export function CopyButton({ value, what }: { value: string; what: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const t = useDashboardTranslation();
  const copied = t("copy.copied", { what });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // No clipboard (an insecure origin, a denied permission): the value stays on screen to select.
      setState("failed");
    }
  };
  return (
    <>
      {/* The name keeps the visible word ("Copy") first; the status says when it is done. */}
      <Button onClick={copy} aria-label={t("copy.copyWhat", { what })}>
        {t("copy.copy")}
      </Button>
      <span role="status" className="dash-muted">
        {state === "copied"
          ? `${copied.charAt(0).toUpperCase()}${copied.slice(1)}`
          : state === "failed"
            ? t("copy.failed")
            : ""}
      </span>
    </>
  );
}
