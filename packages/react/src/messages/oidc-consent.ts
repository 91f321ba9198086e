// English texts of the OpenID Provider consent page (`oidc-consent`): an app signing in through the project.
export const oidcConsent = {
  "oidcConsent.title": "Sign in to {app}",
  "oidcConsent.prompt": "{app} asks to:",
  "oidcConsent.scope.openid": "Know who you are",
  "oidcConsent.scope.profile": "See your name and profile picture",
  "oidcConsent.scope.email": "See your e-mail address",
  "oidcConsent.scope.offline_access": "Stay signed in while you are away",
  "oidcConsent.scope.team": "See the teams you belong to",
  "oidcConsent.allow": "Allow",
  "oidcConsent.deny": "Deny",
  "oidcConsent.continuing": "Continuing to {app}…",
  "oidcConsent.missing": "This link has no sign-in request. Start signing in from the app again.",
  "oidcConsent.invalid": "This sign-in request has expired. Start signing in from the app again.",
  // The account settings section of the apps the user let sign them in.
  "oidcConsent.apps.title": "Connected apps",
  "oidcConsent.apps.none": "You have not let any app sign you in.",
  "oidcConsent.apps.revoke": "Remove access",
  "oidcConsent.apps.revokeQuestion": "Remove access for {app}? It will have to ask you again.",
} as const;
