// <StackTheme>: Stack's theming component. Its colors (Stack's names: background, primary…) become the pages' custom
// properties for the light and dark schemes of every Gatehouse root inside it.
import { type ReactNode, useId } from "react";

type Colors = {
  background: string;
  foreground: string;
  card: string;
  cardForeground: string;
  popover: string;
  popoverForeground: string;
  primary: string;
  primaryForeground: string;
  secondary: string;
  secondaryForeground: string;
  muted: string;
  mutedForeground: string;
  accent: string;
  accentForeground: string;
  destructive: string;
  destructiveForeground: string;
  border: string;
  input: string;
  ring: string;
};

export type ThemeConfig = { light?: Partial<Colors>; dark?: Partial<Colors>; radius?: string };

/** Stack's color names → ours (styles.ts); colors Stack has and our sheet does not use are accepted and unused. */
const PROPERTIES: Partial<Record<keyof Colors, string>> = {
  background: "--gh-bg",
  foreground: "--gh-fg",
  card: "--gh-surface",
  primary: "--gh-primary",
  primaryForeground: "--gh-primary-fg",
  muted: "--gh-subtle",
  mutedForeground: "--gh-muted",
  destructive: "--gh-danger",
  border: "--gh-border",
  ring: "--gh-focus",
};

/** A value is written into a style sheet: anything that could close the declaration or the sheet is refused. */
const safe = (value: string) => !/[;{}<>\\]/.test(value);

function declarations(colors: Partial<Colors> | undefined): string {
  return Object.entries(colors ?? {})
    .flatMap(([name, value]) => {
      const property = PROPERTIES[name as keyof Colors];
      return property && typeof value === "string" && safe(value) ? [`${property}: ${value};`] : [];
    })
    .join(" ");
}

export function StackTheme({
  theme = {},
  children,
  nonce,
}: {
  theme?: ThemeConfig;
  children?: ReactNode;
  nonce?: string;
}) {
  const scope = `gh-theme-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const light = declarations(theme.light);
  const dark = declarations(theme.dark);
  const radius = theme.radius && safe(theme.radius) ? theme.radius : undefined;
  const sheet = [
    light && `.${scope} .gh-root { ${light} }`,
    dark && `.${scope} .gh-root[data-theme="dark"] { ${dark} }`,
    dark && `@media (prefers-color-scheme: dark) { .${scope} .gh-root[data-theme="system"] { ${dark} } }`,
    radius && `.${scope} .gh-root .gh-card { border-radius: ${radius}; }`,
  ]
    .filter(Boolean)
    .join("\n");
  return (
    <div className={scope} style={{ display: "contents" }}>
      {sheet && <style nonce={nonce}>{sheet}</style>}
      {children}
    </div>
  );
}
