// Pieces the user and team screens share: an error boundary that keeps a failed part's error in place, the in-place
// "Are you sure?" step of destructive actions, and the JSON metadata editor that refuses invalid JSON before sending.
import { Alert, Button } from "@gatehouse/react/ui";
import {
  Component,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { invalidate } from "../../data.ts";
import { useFormAction } from "../form.ts";

export const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

/** A date for a table cell; "never" for the SDK's zero date (a user who was never active). */
export const when = (date: Date) => (date.getTime() === 0 ? "never" : dateTime.format(date));

class Boundary extends Component<{ retry: () => void; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="dash-actions">
        <Alert>Could not load this part: {this.state.error.message}</Alert>
        <Button
          onClick={() => {
            this.props.retry();
            this.setState({ error: null });
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
}

/**
 * A part of a screen that loads on its own: "Loading…" meanwhile, and its error in place (not the whole screen's),
 * with "Try again" reading the keys starting with `reads` again.
 */
export function Part({
  label,
  reads,
  children,
}: {
  label: string;
  reads: string | string[];
  children: ReactNode;
}) {
  return (
    <Boundary retry={() => invalidate(...[reads].flat())}>
      <Suspense fallback={<p className="dash-muted">Loading {label}…</p>}>{children}</Suspense>
    </Boundary>
  );
}

/**
 * A destructive action's button, which first asks in place: "question [confirm] [Cancel]". Escape or Cancel go
 * back (focus returns to the button); the action's error is shown in place.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  onConfirm,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  onConfirm: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  // The bricks' Button takes no ref: focus is moved through a wrapper (the first button is the one to focus).
  const opener = useRef<HTMLSpanElement>(null);
  const cancel = useRef<HTMLSpanElement>(null);
  const action = useFormAction(async () => {
    await onConfirm();
    setAsking(false);
  });
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) cancel.current?.querySelector("button")?.focus();
    else if (wasAsking.current) opener.current?.querySelector("button")?.focus();
    wasAsking.current = asking;
  }, [asking]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    setAsking(false);
  };
  if (!asking) {
    return (
      <span ref={opener} className="dash-contents">
        <Button variant="danger" onClick={() => setAsking(true)}>
          {label}
        </Button>
      </span>
    );
  }
  return (
    // Escape anywhere in the question cancels it.
    <fieldset className="dash-ask" onKeyDown={onKeyDown}>
      <legend>{question}</legend>
      <Button variant="danger" pending={action.pending} onClick={() => void action.run()}>
        {confirmLabel}
      </Button>
      <span ref={cancel} className="dash-contents">
        <Button onClick={() => setAsking(false)}>Cancel</Button>
      </span>
      {action.error && <Alert>{action.error}</Alert>}
    </fieldset>
  );
}

const pretty = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/** One metadata field as JSON in a textarea: invalid JSON is refused in place and nothing is sent. */
export function JsonEditor({
  label,
  hint,
  value,
  onSave,
}: {
  label: string;
  hint: string;
  value: unknown;
  onSave: (value: unknown) => Promise<void>;
}) {
  const id = useId();
  const [text, setText] = useState(() => pretty(value));
  const [invalid, setInvalid] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const save = useFormAction(async (parsed: unknown) => {
    await onSave(parsed);
    setText(pretty(parsed));
    setSaved(true);
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.trim() === "" ? "null" : text);
    } catch (error) {
      setInvalid(`This is not valid JSON: ${(error as Error).message}`);
      textarea.current?.focus();
      return;
    }
    setInvalid(null);
    void save.run(parsed);
  };
  const describedBy = [`${id}-hint`, invalid ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <form className="dash-form dash-json" noValidate onSubmit={onSubmit}>
      <label className="dash-select" htmlFor={id}>
        {label}
      </label>
      <p className="dash-muted" id={`${id}-hint`}>
        {hint}
      </p>
      <textarea
        ref={textarea}
        id={id}
        className="dash-textarea"
        spellCheck={false}
        value={text}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          setText(event.target.value);
          setSaved(false);
        }}
      />
      {invalid && (
        <p className="gh-field-error" id={`${id}-error`} role="alert">
          {invalid}
        </p>
      )}
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{label} saved.</Alert>}
      <div>
        <Button type="submit" pending={save.pending}>
          Save {label.toLowerCase()}
        </Button>
      </div>
    </form>
  );
}

/** A checkbox with its label, styled like the bricks' fields. */
export function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="dash-check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

/** Focuses the first field of `form` named in `names` (the first invalid one, in the form's order). */
export function focusFirst(form: HTMLFormElement, names: string[]) {
  for (const element of form.querySelectorAll<HTMLElement>("[name]")) {
    if (names.includes(element.getAttribute("name") ?? "")) {
      element.focus();
      return;
    }
  }
}

/** A light check of an e-mail address's shape (the server has the last word). */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

export const looksLikeUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
