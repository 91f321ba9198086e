// The dashboard's routing, without a router package: the path under /dashboard decides the screen, links and
// `navigate` change it through the History API (no reload, so cached reads stay), and back/forward work.
import { type MouseEvent, type ReactNode, useSyncExternalStore } from "react";
import { BASE } from "./stack.ts";

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener("popstate", notify);

/** The path below /dashboard ("/projects/abc/users"), without a trailing slash ("/" for the root). */
function currentPath(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : "/";
  return path.replace(/(.)\/+$/, "$1") || "/";
}

export function usePath(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentPath,
    currentPath,
  );
}

/** Goes to a dashboard path ("/projects/abc") without reloading. */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${path}`;
  if (options.replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  notify();
  window.scrollTo(0, 0);
}

/** A link to a dashboard path: a real <a> (open in a new tab works), followed in place on a plain click. */
export function Link({
  to,
  children,
  className,
  current,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  current?: boolean;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a
      href={`${BASE}${to}`}
      className={className}
      aria-current={current ? "page" : undefined}
      onClick={onClick}
    >
      {children}
    </a>
  );
}

/** Matches `path` against a pattern with `:name` segments; answers the named segments or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const names = pattern.split("/");
  const parts = path.split("/");
  if (names.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    const part = parts[i] as string;
    if (name.startsWith(":")) params[name.slice(1)] = decodeURIComponent(part);
    else if (name !== part) return null;
  }
  return params;
}
