// Fills a message's variables in a language: `{name}` takes vars.name (numbers formatted with Intl.NumberFormat), and
// `{n, plural, one {# item} other {# items}}` picks the branch of Intl.PluralRules' category for vars.n (`=0`-style
// exact branches first), `#` standing for the formatted number. One place for this, used by every translator.

export type MessageVars = Record<string, string | number>;

// A plural block: `{n, plural,` then branches `key {text}` whose text has no braces but `#`, then `}`.
const PLURAL = /\{(\w+), *plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const BRANCH = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;
const VARIABLE = /\{(\w+)\}/g;

export function formatMessage(lang: string, text: string, vars: MessageVars | undefined): string {
  if (!vars) return text;
  const number = (value: number) => new Intl.NumberFormat(lang).format(value);
  const withPlurals = text.replace(PLURAL, (whole, name: string, branches: string) => {
    const value = vars[name];
    if (typeof value !== "number") return whole;
    const choices = new Map([...branches.matchAll(BRANCH)].map(([, key, body]) => [key, body ?? ""]));
    const body =
      choices.get(`=${value}`) ??
      choices.get(new Intl.PluralRules(lang).select(value)) ??
      choices.get("other");
    return (body ?? whole).replace(/#/g, number(value));
  });
  return withPlurals.replace(VARIABLE, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? number(value) : value;
  });
}

/** The variable names a message uses (plain and plural), for checking that a translation keeps them. */
export function messageVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)(?:\}|, *plural,)/g)].map(([, name]) => name ?? ""))].sort();
}
