// The name a team's member list shows for a member. The server already answers a member's profile with their user's
// display name when they set none in the team (as Stack does); when neither is set, the user themselves is shown by
// their e-mail (which the page knows). Others' e-mails are not in the client API (Stack's neither: a member must not
// learn every other member's address), so only they, with no name at all, stay "Unnamed member".
import type { CurrentUser, TeamUser } from "@gatehouse/sdk";
import type { Translate } from "../../i18n.ts";

export function memberName(
  member: Pick<TeamUser, "id" | "teamProfile">,
  self: Pick<CurrentUser, "id" | "displayName" | "primaryEmail">,
  t: Translate,
): string {
  if (member.teamProfile.displayName) return member.teamProfile.displayName;
  if (member.id === self.id) return self.displayName ?? self.primaryEmail ?? t("account.teams.unnamed");
  return t("account.teams.unnamed");
}
