// The building bricks of every page: the scoped root (style sheet and theme), card, fields with their errors, buttons
// that show progress, alerts that screen readers announce. Pages compose these and never style elements themselves.
import {
  type ButtonHTMLAttributes,
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  useContext,
  useId,
} from "react";
import { useDirection, useLocale } from "../i18n.ts";
import { useStackSettings } from "../provider.tsx";
import { STYLES } from "./styles.ts";

/**
 * The scoped root: renders the style sheet (React hoists it to <head>, once however many roots there are) and the
 * theme. `page` makes it fill the screen and center its card, for the handler pages; components sit inline.
 */
export function Root({ page = false, children }: { page?: boolean; children: ReactNode }) {
  const { theme } = useStackSettings();
  // The locale's language and direction on the root, so screen readers pronounce it and right-to-left pages mirror.
  const lang = useLocale();
  const dir = useDirection();
  return (
    <div
      className={page ? "gh-root gh-page" : "gh-root"}
      lang={lang}
      dir={dir}
      data-theme={theme}
      style={{ display: page ? undefined : "contents" }}
    >
      <style href="gatehouse-styles" precedence="default">
        {STYLES}
      </style>
      {children}
    </div>
  );
}

/** Whether pages fill the screen (the default) or sit as a card inside the app's own layout (`fullPage={false}`). */
export const FullPageContext = createContext(true);

/** A handler page: the scoped root and its card, with the page's title as its heading. */
export function PageCard({
  title,
  wide = false,
  top,
  children,
}: {
  title: string;
  wide?: boolean;
  /** Above the title: the project's name on the auth cards, the way back to the app in account settings. */
  top?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Root page={useContext(FullPageContext)}>
      <main className={wide ? "gh-card gh-wide" : "gh-card"}>
        {top}
        <h1 className="gh-title">{title}</h1>
        {children}
      </main>
    </Root>
  );
}

export function Muted({ children }: { children: ReactNode }) {
  return <p className="gh-muted">{children}</p>;
}

export function Spinner({ label }: { label?: string }) {
  if (!label) return <span className="gh-spinner" aria-hidden="true" />;
  // A labelled spinner is a status named by its label.
  return (
    <span role="status" aria-label={label}>
      <span className="gh-spinner" aria-hidden="true" />
    </span>
  );
}

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "className"> & {
  variant?: "primary" | "secondary" | "danger";
  full?: boolean;
  /** While true the button shows a spinner and ignores clicks (it stays focusable, so focus is not lost). */
  pending?: boolean;
};

export function Button({
  variant = "secondary",
  full = false,
  pending = false,
  type = "button",
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const classes = ["gh-button", variant === "secondary" ? "" : `gh-${variant}`, full ? "gh-full" : ""];
  return (
    <button
      {...rest}
      type={type}
      className={classes.filter(Boolean).join(" ")}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={(event) => {
        if (pending) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {pending && <Spinner />}
      {children}
    </button>
  );
}

/** A button that looks like a link, for secondary actions inside text. */
export function LinkButton({
  children,
  ...rest
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "className">) {
  return (
    <button type="button" className="gh-link" {...rest}>
      {children}
    </button>
  );
}

export function Link({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className="gh-link" href={href}>
      {children}
    </a>
  );
}

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "id"> & {
  label: string;
  /** The field's own error, shown under it and tied to it for screen readers. */
  error?: string | null;
  hint?: string;
};

/**
 * What a field says under its control: a hint, and its error announced as it appears. Their ids are `${id}-hint` and
 * `${id}-error`, for the control's aria-describedby.
 */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string | null }) {
  return (
    <>
      {hint && (
        <p className="gh-muted" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="gh-field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled input; its error (if any) is announced and tied to it by aria-describedby. */
export function Field({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return (
    <div className="gh-field">
      <label className="gh-label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        id={id}
        className="gh-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A message in place: errors are alerts (announced at once), the rest polite status messages. */
export function Alert({
  kind = "error",
  children,
}: {
  kind?: "error" | "success" | "info";
  children: ReactNode;
}) {
  return (
    <p className={`gh-alert gh-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

export function Divider({ children }: { children: ReactNode }) {
  return <div className="gh-divider">{children}</div>;
}

/** A titled part of a page (account settings sections, the MFA step). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="gh-section" aria-labelledby={id}>
      <h2 className="gh-subtitle" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Avatar({ name, imageUrl, size }: { name: string; imageUrl?: string | null; size?: number }) {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join("");
  return (
    <span
      className="gh-avatar"
      aria-hidden="true"
      style={size ? { width: size, height: size, fontSize: Math.round(size * 0.4) } : undefined}
    >
      {imageUrl ? <img src={imageUrl} alt="" /> : initials || "?"}
    </span>
  );
}
