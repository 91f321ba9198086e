// The English table, assembled from the texts of each part of the pages: the source every other locale translates
// key for key (locales/*.ts), and the fallback for a key a locale lacks.
import { account } from "./account.ts";
import { auth } from "./auth.ts";
import { cliAuth } from "./cli-auth.ts";
import { common } from "./common.ts";
import { components } from "./components.ts";
import { keysAndOnboarding } from "./keys-and-onboarding.ts";
import { language } from "./language.ts";
import { oidcConsent } from "./oidc-consent.ts";
import { polish } from "./polish.ts";

export const en = {
  ...common,
  ...auth,
  ...account,
  ...components,
  ...cliAuth,
  ...oidcConsent,
  ...keysAndOnboarding,
  ...language,
  ...polish,
};

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
/** A locale's table: typed partial so a key added to English does not break the build; locales.test.ts demands it. */
export type LocaleTable = Partial<Messages>;
