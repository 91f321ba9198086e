// <UserButton>: "Sign in" / "Sign up" for a signed-out visitor, else the user's avatar opening a menu (account
// settings, the app's extra items, sign out). Also home of <Menu>, the menu button both header components share.
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Avatar, Button, Root } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";

export type MenuItem = {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  /** For a choice among items (the selected team): the item becomes a checked or unchecked radio item. */
  checked?: boolean;
};

type MenuProps = {
  /** The trigger's accessible name. */
  label: string;
  /** What the trigger shows. */
  trigger: ReactNode;
  /** Shown above the items, not focusable (the user's name and e-mail). */
  header?: ReactNode;
  items: MenuItem[];
};

/**
 * The WAI-ARIA menu button: Enter, Space or ArrowDown open it on the first item (ArrowUp on the last), arrows,
 * Home and End move, Escape closes and gives focus back to the trigger, Tab or a click outside closes it.
 */
export function Menu({ label, trigger, header, items }: MenuProps) {
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const open = active !== null;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const close = useCallback((refocus: boolean) => {
    setActive(null);
    if (refocus) button.current?.focus();
  }, []);

  useEffect(() => {
    // With no items the menu itself takes focus, so Escape still works.
    if (active !== null) (itemRefs.current[active] ?? list.current)?.focus();
  }, [active]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open, close]);

  const last = items.length - 1;
  const onTriggerKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setActive(event.key === "ArrowDown" ? 0 : last);
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const current = active ?? 0;
    const moves: Record<string, number> = {
      ArrowDown: current === last ? 0 : current + 1,
      ArrowUp: current === 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    const next = items.length ? moves[event.key] : undefined;
    if (next !== undefined) {
      event.preventDefault();
      setActive(next);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") {
      close(false);
    }
  };

  return (
    <div className="gh-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="gh-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : setActive(0))}
        onKeyDown={onTriggerKey}
      >
        {trigger}
      </button>
      {open && (
        <div className="gh-menu-list">
          {header}
          <div ref={list} role="menu" id={id} aria-label={label} onKeyDown={onMenuKey} tabIndex={-1}>
            {items.map((item, index) => (
              <button
                key={item.key}
                ref={(element) => {
                  itemRefs.current[index] = element;
                }}
                type="button"
                {...(item.checked === undefined
                  ? { role: "menuitem" }
                  : { role: "menuitemradio", "aria-checked": item.checked })}
                tabIndex={index === active ? 0 : -1}
                className="gh-menu-item"
                onClick={() => {
                  close(true);
                  item.onSelect();
                }}
              >
                {item.checked && <span aria-hidden="true">✓ </span>}
                {item.label}
              </button>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

export type UserButtonProps = {
  /** Shows the user's name and e-mail next to the avatar too (the menu always shows them). */
  showUserInfo?: boolean;
  /** The app's own menu items, shown between account settings and sign out (Stack's shape). */
  extraItems?: { text: string; icon?: ReactNode; onClick: () => void | Promise<void> }[];
};

export function UserButton({ showUserInfo = false, extraItems = [] }: UserButtonProps) {
  const t = useTranslation();
  const app = useStackApp();
  const user = useUser();
  const { run, error } = useAction(async (action: () => void | Promise<void>) => {
    await action();
  });

  if (!user) {
    return (
      <Root>
        <span className="gh-row">
          <Button onClick={() => run(() => app.redirectToSignIn())}>{t("userButton.signIn")}</Button>
          <Button variant="primary" onClick={() => run(() => app.redirectToSignUp())}>
            {t("userButton.signUp")}
          </Button>
          {error && <Alert>{error}</Alert>}
        </span>
      </Root>
    );
  }

  const name = user.displayName || user.primaryEmail || "";
  const identity = (
    <span className="gh-identity">
      <strong title={name}>{name}</strong>
      {user.displayName && user.primaryEmail && (
        <span className="gh-muted" title={user.primaryEmail}>
          {user.primaryEmail}
        </span>
      )}
    </span>
  );
  const items: MenuItem[] = [
    {
      key: "account-settings",
      label: t("userButton.accountSettings"),
      onSelect: () => run(() => app.redirectToAccountSettings()),
    },
    ...extraItems.map((item, index) => ({
      key: `extra-${index}`,
      label: (
        <span className="gh-row">
          {item.icon}
          {item.text}
        </span>
      ),
      onSelect: () => run(item.onClick),
    })),
    { key: "sign-out", label: t("userButton.signOut"), onSelect: () => run(() => user.signOut()) },
  ];

  return (
    <Root>
      <span className="gh-row">
        <Menu
          label={t("userButton.menu", { name })}
          trigger={
            <>
              <Avatar name={name} imageUrl={user.profileImageUrl} />
              {showUserInfo && identity}
            </>
          }
          header={<div className="gh-menu-header">{identity}</div>}
          items={items}
        />
        {error && <Alert>{error}</Alert>}
      </span>
    </Root>
  );
}
