// A team's data as every team view carries it (client and server teams, teams.ts, and the signed-in user's selected
// team, users.ts): a module of its own so that a page reading the user does not load the teams' calls.
import type { TeamJson } from "./wire.ts";

export function teamData(json: TeamJson) {
  return {
    id: json.id,
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
  };
}
