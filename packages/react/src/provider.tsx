// <StackProvider>: hands the app (and the theme and language the pages use) to every hook and component below it.
// The bindings' shared reads are kept per app (see store.ts), so the app's own hooks share them.
import type { StackClientApp } from "@gatehouse/sdk";
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { attachAppHooks, type WithAppHooks } from "./app-hooks.ts";
import { type BindingStore, bindingStoreOf } from "./store.ts";

export type ThemeMode = "light" | "dark" | "system";

export type StackProviderProps = {
  app: StackClientApp;
  /** The pages' color scheme; "system" follows the browser's preference. */
  theme?: ThemeMode;
  /**
   * The pages' language, as a BCP 47 tag ("de", "pt-BR", "zh-TW"…). Without it: the signed-in user's stored locale,
   * then the browser's languages, then English (see i18n.ts).
   */
  lang?: string;
  /**
   * A mapping of English texts (or message keys) to the texts to show instead, in every language; as Stack's
   * StackProvider: case-sensitive, and an entry that matches no text throws (see i18n.ts).
   */
  translationOverrides?: Record<string, string>;
  children?: ReactNode;
};

type StackContextValue = {
  app: StackClientApp;
  theme: ThemeMode;
  lang: string | undefined;
  translationOverrides: Record<string, string> | undefined;
  store: BindingStore;
};

const StackContext = createContext<StackContextValue | null>(null);

export function StackProvider({
  app,
  theme = "system",
  lang,
  translationOverrides,
  children,
}: StackProviderProps) {
  const store = bindingStoreOf(app);
  const value = useMemo(
    () => ({ app, theme, lang, translationOverrides, store }),
    [app, theme, lang, translationOverrides, store],
  );
  return <StackContext value={value}>{children}</StackContext>;
}

/** The provider's context, or null outside one (for components that can bring their own provider). */
export function useOptionalStackContext(): StackContextValue | null {
  return useContext(StackContext);
}

/** The provider's context; every hook goes through here, so each says the same thing outside a provider. */
export function useStackContext(): StackContextValue {
  const context = useContext(StackContext);
  if (!context) throw new Error("useStackApp must be used inside a <StackProvider>.");
  return context;
}

/** The provider's app, carrying Stack's app hooks (`app.useUser()`, `app.useProject()`…). */
export function useStackApp(): WithAppHooks<StackClientApp> {
  return attachAppHooks(useStackContext().app);
}

/** The theme and language the provider was given, for the pages (the language in use is i18n.ts's useLocale). */
export function useStackSettings(): { theme: ThemeMode; lang: string | undefined } {
  const { theme, lang } = useStackContext();
  return { theme, lang };
}
