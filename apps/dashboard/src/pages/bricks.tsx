// Bricks every dashboard screen shares: a part of a screen that reads on its own (its loading line, and its error in
// place with a retry, instead of taking the whole screen down), and the in-place confirm step of a destructive
// action worded the dashboard's way (the server's plain-text refusals shown as they are).
import {
  Alert,
  Button,
  ConfirmButton as Confirm,
  type ConfirmButtonProps,
  ErrorBoundary,
  Root,
} from "@gatehouse/react/ui";
import { type ReactNode, Suspense } from "react";
import { invalidate } from "../data.ts";
import { plainRefusal } from "./form.ts";

/**
 * A part of a screen that loads on its own: "Loading {label}…" meanwhile, and its error in place (not the whole
 * screen's). With `reads`, "Try again" reads the keys starting with them again and renders the part anew.
 */
export function Part({
  label,
  reads,
  children,
}: {
  /** What the part shows, as in a sentence ("API keys", "members"). */
  label: string;
  reads?: string | string[];
  children: ReactNode;
}) {
  return (
    <ErrorBoundary
      fallback={(error, retry) => (
        <Root>
          <div className="dash-actions">
            <Alert>
              Could not load the {label}: {error.message}
            </Alert>
            {reads !== undefined && (
              <Button
                onClick={() => {
                  invalidate(...[reads].flat());
                  retry();
                }}
              >
                Try again
              </Button>
            )}
          </div>
        </Root>
      )}
    >
      <Suspense fallback={<p className="dash-muted">Loading {label}…</p>}>{children}</Suspense>
    </ErrorBoundary>
  );
}

/** The bricks' in-place "Are you sure?" step; a refusal of the server is shown in place, in its own words. */
export function ConfirmButton(props: ConfirmButtonProps) {
  return <Confirm errorText={plainRefusal} {...props} />;
}
