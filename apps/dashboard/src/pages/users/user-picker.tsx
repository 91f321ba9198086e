// Choosing a user by searching as one types (the server's search over names, e-mails and ids, through the admin
// SDK's listUsers): an ARIA combobox whose list shows each match's avatar, name and e-mail, driven by the keyboard
// (arrows, Home/End, Enter, Escape) or the pointer. The one brick for every place the dashboard names a user.
import type { OwnedProject, ServerUser } from "@gatehouse/react";
import { Avatar, FieldNotes } from "@gatehouse/react/ui";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";

/** How many matches the list shows: enough to pick from, few enough to read. */
const SHOWN = 8;
/** Typing pauses this long before a search goes out, so a quick typist sends one request, not one per key. */
const PAUSE_MS = 200;

export type PickedUser = Pick<ServerUser, "id" | "displayName" | "primaryEmail">;

/** How a user reads in the field once chosen: their name and e-mail, or whichever they have, or their id. */
export const userLabel = (user: PickedUser) =>
  user.displayName && user.primaryEmail
    ? `${user.displayName} (${user.primaryEmail})`
    : user.displayName || user.primaryEmail || user.id;

type Search = { status: "idle" | "searching" | "done" | "failed"; users: ServerUser[] };

export function UserPicker({
  project,
  label,
  name,
  value,
  onChange,
  error,
  hint,
}: {
  project: OwnedProject;
  label: string;
  /** The field's name (for focusing the first invalid field of a form). */
  name?: string;
  value: PickedUser | null;
  onChange: (user: PickedUser | null) => void;
  error?: string | null;
  hint?: string;
}) {
  const t = useDashboardTranslation();
  const id = useId();
  const [text, setText] = useState(value ? userLabel(value) : "");
  // The value the field shows; when the form changes it (clears it after creating), the text follows.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value ? userLabel(value) : "");
  }
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<number | null>(null);
  const [search, setSearch] = useState<Search>({ status: "idle", users: [] });
  const latest = useRef(0);
  const query = value ? null : text.trim();

  useEffect(() => {
    // Only while the list is open and nobody is chosen; an answer that arrives after a newer search is dropped.
    if (!open || query === null) return;
    const run = ++latest.current;
    setSearch((current) => ({ ...current, status: "searching" }));
    const timer = setTimeout(() => {
      project.app
        .listUsers({ query: query || undefined, orderBy: "signedUpAt", desc: true, limit: SHOWN })
        .then(
          (users) => run === latest.current && setSearch({ status: "done", users: [...users] }),
          () => run === latest.current && setSearch({ status: "failed", users: [] }),
        );
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [open, query, project]);

  const users = search.users;
  const showList = open && query !== null && users.length > 0;
  const choose = (user: ServerUser) => {
    setShown(user);
    onChange(user);
    setText(userLabel(user));
    close();
  };
  const close = () => {
    setOpen(false);
    setActive(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const { key } = event;
    if (key === "Escape" && open) {
      event.preventDefault();
      close();
    } else if (key === "Enter" && showList && active !== null && users[active]) {
      // Enter picks the highlighted match instead of submitting the form.
      event.preventDefault();
      choose(users[active]);
    } else if (
      key === "ArrowDown" ||
      key === "ArrowUp" ||
      (active !== null && (key === "Home" || key === "End"))
    ) {
      event.preventDefault();
      if (!open) return setOpen(true);
      const last = users.length - 1;
      if (last < 0) return;
      const moves: Record<string, number> = {
        ArrowDown: active === null || active === last ? 0 : active + 1,
        ArrowUp: active === null || active === 0 ? last : active - 1,
        Home: 0,
        End: last,
      };
      setActive(moves[key] ?? 0);
    }
  };

  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const describedBy = [`${id}-status`, hint ? `${id}-hint` : "", error ? `${id}-error` : ""]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="gh-field dash-picker">
      <label className="gh-label" htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      <div className="dash-picker-box">
        <input
          id={id}
          name={name}
          className="gh-input"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          placeholder={t("picker.placeholder")}
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active !== null ? optionId(active) : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (value) {
              setShown(null);
              onChange(null);
            }
            setOpen(true);
            setActive(null);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={close}
          onKeyDown={onKeyDown}
        />
        <div
          id={listId}
          role="listbox"
          aria-labelledby={`${id}-label`}
          className="dash-picker-list"
          hidden={!showList}
        >
          {showList &&
            users.map((user, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (arrows, Enter).
              <div
                key={user.id}
                id={optionId(index)}
                role="option"
                // The focus stays in the input (aria-activedescendant); -1 only lets a click focus it, which the
                // mouse-down below prevents.
                tabIndex={-1}
                aria-selected={index === active}
                className="dash-picker-option"
                // Keeps the focus in the input, so the click lands before the blur closes the list.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(user)}
              >
                <Avatar name={user.displayName || user.primaryEmail || "?"} imageUrl={user.profileImageUrl} />
                <span className="dash-picker-identity">
                  <span className="dash-picker-name">{user.displayName || user.primaryEmail || user.id}</span>
                  <span className="dash-muted">
                    {user.displayName ? (user.primaryEmail ?? "no e-mail") : user.id}
                  </span>
                </span>
              </div>
            ))}
        </div>
      </div>
      <p className="dash-muted dash-picker-status" id={`${id}-status`} role="status">
        {open && query !== null ? statusText(search, query, t) : ""}
      </p>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** What the search found, said politely to screen readers and shown under the field. */
function statusText(
  search: Search,
  query: string,
  t: (key: DashboardKey, values?: Record<string, string | number>) => string,
): string {
  const found = search.users.length;
  if (search.status === "searching") return t("picker.searching");
  if (search.status === "failed") return t("picker.failed");
  if (search.status !== "done") return "";
  if (found === 0) return query ? t("users.noMatch", { query }) : t("picker.noUsers");
  return found === SHOWN ? t("picker.first", { n: SHOWN }) : t("picker.matches", { n: found });
}
