// The account settings' navigation: one section shown at a time, chosen by the URL's hash (`#account-emails`), so a
// section can be linked to, bookmarked and reached with the browser's back button. The sections are listed as links
// (a sidebar on wide screens, a scrolling tab strip on narrow ones: see polish-styles.ts); the shown one is marked
// aria-current, and choosing one moves focus to it so keyboard and screen-reader users land on what they chose.
import { type ReactNode, useEffect, useRef, useSyncExternalStore } from "react";
import { useTranslation } from "../../i18n.ts";

export type SettingsSection = { anchor: string; title: string; element: ReactNode };

const subscribeToHash = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
};
const currentHash = () => window.location.hash;

/** The sections' links and the one the hash names (the first when it names none). */
export function SettingsNavigation({ sections }: { sections: SettingsSection[] }) {
  const t = useTranslation();
  const hash = useSyncExternalStore(subscribeToHash, currentHash, () => "");
  const shown = sections.find((section) => hash === `#account-${section.anchor}`) ?? sections[0];
  const body = useRef<HTMLDivElement>(null);
  const chosen = useRef(false);
  const shownAnchor = shown?.anchor;
  useEffect(() => {
    // Only after a choice: on arrival the page's own heading keeps the focus.
    if (chosen.current && shownAnchor) body.current?.focus();
  }, [shownAnchor]);
  return (
    <div className="gh-settings">
      <nav className="gh-settings-nav" aria-label={t("account.index")}>
        <ul>
          {sections.map((section) => (
            <li key={section.anchor}>
              <a
                className="gh-link"
                href={`#account-${section.anchor}`}
                aria-current={section === shown ? "page" : undefined}
                onClick={() => {
                  chosen.current = true;
                }}
              >
                {section.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {shown && (
        <div
          className="gh-settings-body"
          id={`account-${shown.anchor}`}
          key={shown.anchor}
          ref={body}
          tabIndex={-1}
        >
          {shown.element}
        </div>
      )}
    </div>
  );
}
