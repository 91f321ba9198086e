// The name a team's member list shows for a member. A member without a name in the team is shown by the name they
// go by elsewhere: for the user themselves that is their own display name or e-mail (which the page knows); the
// client API tells nothing more about other members, so they stay "Unnamed member".
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
