// English texts of the language picker in account settings (the language is stored with the user, see i18n.ts).
export const language = {
  "account.language.title": "Language",
  "account.language.label": "Language of these pages and of your e-mails",
  "account.language.automatic": "Automatic (browser language)",
  "account.language.saved": "Language saved.",
} as const;
