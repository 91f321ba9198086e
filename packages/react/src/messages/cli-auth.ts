// English texts of the CLI login confirmation page (`cli-auth-confirm`).
export const cliAuth = {
  "cliAuth.title": "Authorize the CLI",
  "cliAuth.prompt":
    "A command-line application is asking to sign in as you. Authorize it only if you started it.",
  "cliAuth.signedOut": "Sign in to authorize the command-line application.",
  "cliAuth.signIn": "Sign in",
  "cliAuth.authorize": "Authorize",
  "cliAuth.cancel": "Cancel",
  "cliAuth.success":
    "The command-line application is authorized. You can close this window and return to the command line.",
  "cliAuth.missingCode": "This link has no login code. Start the login from the command line again.",
  "cliAuth.invalid":
    "This login code is not valid or has expired. Start the login from the command line again.",
} as const;
