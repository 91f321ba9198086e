// Bricks every dashboard screen shares: a part of a screen that reads on its own (its loading line, its error in
// place with a retry), the in-place confirm step of a destructive action worded the dashboard's way (the server's
// plain-text refusals shown as they are), and a table's scrolling frame, head and in-place form row.
import {
  Alert,
  Button,
  ConfirmButton as Confirm,
  type ConfirmButtonProps,
  ErrorBoundary,
} from "@gatehouse/react/ui";
import { type ReactNode, Suspense } from "react";
import { invalidate } from "../data.ts";
import { useDashboardTranslation } from "../messages.ts";
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
  const t = useDashboardTranslation();
  return (
    <ErrorBoundary
      fallback={(error, retry) => (
        <div className="dash-actions">
          <Alert>{t("part.failed", { label, error: error.message })}</Alert>
          {reads !== undefined && (
            <Button
              onClick={() => {
                invalidate(...[reads].flat());
                retry();
              }}
            >
              {t("part.retry")}
            </Button>
          )}
        </div>
      )}
    >
      <Suspense fallback={<p className="dash-muted">{t("part.loading", { label })}</p>}>{children}</Suspense>
    </ErrorBoundary>
  );
}

/** The bricks' in-place "Are you sure?" step; a refusal of the server is shown in place, in its own words. */
export function ConfirmButton(props: ConfirmButtonProps) {
  return <Confirm errorText={plainRefusal} {...props} />;
}

/**
 * A table wider than a narrow screen scrolls sideways inside this frame, not the whole page. The frame is a named,
 * focusable region so keyboard users can scroll it too (the accessible responsive-table pattern).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to scroll by keyboard.
    <section className="dash-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/**
 * A table's head: one column header per name, and with `actions` a last column of row buttons, named for screen
 * readers only (the buttons say what they do).
 */
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span className="dash-sr-only">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

/** The row being edited in place: its form across all `span` columns. */
export function FormRow({ span, children }: { span: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={span}>{children}</td>
    </tr>
  );
}
