// The dashboard's texts: every locale has every key of English and no other, with English's variables.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SUPPORTED_LOCALES } from "@gatehouse/contract/locales";
import { describe, expect, it } from "vitest";
import { messageVariables } from "../../../packages/react/src/format.ts";
import { DASHBOARD_TABLES, en } from "./messages.ts";

describe("dashboard locale tables", () => {
  it.each(SUPPORTED_LOCALES.filter((locale) => locale !== "en"))(
    "%s is complete and keeps the variables",
    (locale) => {
      const table: Record<string, string> = DASHBOARD_TABLES[locale as keyof typeof DASHBOARD_TABLES];
      expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        expect(messageVariables(table[key] ?? ""), key).toEqual(messageVariables(text));
      }
    },
  );
});

describe("screen texts", () => {
  it("defines each key in one texts file only (a second definition would silently replace the first)", () => {
    const dir = fileURLToPath(new URL("./texts/", import.meta.url));
    const definedIn = new Map<string, string[]>();
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts"))) {
      for (const [, key] of readFileSync(join(dir, file), "utf8").matchAll(/^\s*"([^"]+)": \[/gm))
        definedIn.set(key as string, [...(definedIn.get(key as string) ?? []), file]);
    }
    expect(definedIn.size).toBeGreaterThan(100);
    const twice = [...definedIn].filter(([, files]) => files.length > 1);
    expect(twice).toEqual([]);
  });
});
