// English texts of the pages' comforts: the show-password toggle, the project's name on the auth card, the way back
// to the app, the account settings' navigation, the avatar picker, team members' names, linked accounts, the page
// for an unknown handler route and the notice after sign-up.
export const polish = {
  "polish.password.show": "Show password",
  "polish.password.hide": "Hide password",
  "polish.backToApp": "Back to the app",
  "polish.unknownRoute.title": "Page not found",
  "polish.unknownRoute.text": "There is no page at {path}. The link may be mistyped or out of date.",
  "polish.signUp.verificationSent":
    "Your account is ready. We sent a link to {email}: open it to verify your e-mail address.",
  "polish.avatar.choose": "Choose a picture",
  "polish.avatar.change": "Change picture",
  "polish.avatar.save": "Save picture",
  "polish.avatar.preview": "Your new picture, as others will see it",
  "polish.avatar.hint": "PNG, JPEG, GIF or WebP, cropped to a square.",
  "polish.linked.title": "Linked accounts",
  "polish.linked.none": "No account of another service is linked.",
  "polish.linked.unlink": "Unlink",
  "polish.linked.unlinkQuestion": "Unlink your {provider} account? You will no longer sign in with it.",
  "polish.linked.onlyWay": "Your only way to sign in: set a password before unlinking it.",
  "polish.linked.signInOff": "Not used for sign-in",
};
