// English texts of the building-block components (user button, team switcher) and the team invitation page.
export const components = {
  "userButton.signIn": "Sign in",
  "userButton.signUp": "Sign up",
  "userButton.menu": "Account menu of {name}",
  "userButton.accountSettings": "Account settings",
  "userButton.signOut": "Sign out",
  "teamSwitcher.menu": "Switch team, current: {team}",
  "teamSwitcher.noTeam": "No team selected",
  "teamSwitcher.teams": "Your teams",
  "teamSwitcher.noTeams": "You are not in a team yet.",
  "teamSwitcher.createTeam": "Create a team",
  "teamInvitation.title": "Team invitation",
  "teamInvitation.signedOut":
    "You have been invited to join a team. Sign in or create an account to accept it.",
  "teamInvitation.signIn": "Sign in",
  "teamInvitation.invited": "You have been invited to join {team}.",
  "teamInvitation.join": "Join {team}",
  "teamInvitation.ignore": "Ignore",
  "teamInvitation.joined": "You joined {team}.",
  "teamInvitation.missingCode": "This invitation link is incomplete. Open the link from your e-mail again.",
  "teamInvitation.invalid": "This invitation link is not valid. Ask the team for a new invitation.",
  "teamInvitation.used": "This invitation has already been used.",
  "teamInvitation.expired": "This invitation has expired. Ask the team for a new one.",
  "teamInvitation.tooManyAttempts":
    "This invitation link was tried too many times. Ask the team for a new one.",
} as const;
