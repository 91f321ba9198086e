// The one translation table: every text a page shows is looked up here by key. English is complete; another
// language is a partial table of the same keys (what it lacks falls back to English), chosen by the provider's
// `lang` (its primary subtag: "de-CH" uses "de").
import { account } from "./messages/account.ts";
import { auth } from "./messages/auth.ts";
import { cliAuth } from "./messages/cli-auth.ts";
import { common } from "./messages/common.ts";
import { components } from "./messages/components.ts";
import { keysAndOnboarding } from "./messages/keys-and-onboarding.ts";
import { polish } from "./messages/polish.ts";
import { useStackSettings } from "./provider.tsx";

const en = { ...common, ...auth, ...account, ...components, ...cliAuth, ...keysAndOnboarding, ...polish };

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

/** The tables by primary language subtag; add one to support a language. */
const tables: Record<string, Partial<Messages>> = { en };

/** Variables named `{name}` in a text are replaced by `vars.name`. */
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function translator(lang: string): Translate {
  const table = tables[lang.toLowerCase().split("-")[0] ?? "en"] ?? {};
  return (key, vars) => {
    const text: string = table[key] ?? en[key];
    return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => String(vars[name] ?? whole)) : text;
  };
}

/** The translate function of the provider's language. */
export function useTranslation(): Translate {
  const { lang } = useStackSettings();
  return translator(lang);
}
