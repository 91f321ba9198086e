// Writes import records through a running server's API (as the dashboard would): each user with its e-mail, hash,
// OAuth links and metadata in one request (one transaction on the server), then its teams and memberships. A user
// whose e-mail or OAuth account is already there counts as existing, which makes a re-run skip it.
import { type ApiClient, ApiError } from "../cli/api-client.ts";
import { type ImportUser, providerId } from "./record.ts";

export type WriteResult =
  | { result: "created"; id: string }
  | { result: "exists" }
  | { result: "failed"; reason: string };

export type Sink = { write(user: ImportUser): Promise<WriteResult> };

const EXISTING = new Set(["USER_EMAIL_ALREADY_EXISTS", "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"]);

/** Where the source id lives: Gatehouse users have no external-id column, so it is server metadata. */
function withOrigin(metadata: unknown, provider: string, id: string): Record<string, unknown> {
  const base =
    metadata && typeof metadata === "object" && !Array.isArray(metadata)
      ? metadata
      : metadata === undefined
        ? {}
        : { value: metadata };
  return { ...(base as Record<string, unknown>), imported_from: { provider, id } };
}

export function httpSink(api: ApiClient, provider: string): Sink {
  // Source team id → Gatehouse team id; teams made by an earlier run are found by their imported_from.
  let teams: Promise<Map<string, Promise<string>>> | undefined;
  const loadTeams = async () => {
    const list = await api<{
      items: { id: string; server_metadata?: { imported_from?: { id?: string } } }[];
    }>("GET", "/teams");
    const map = new Map<string, Promise<string>>();
    for (const team of list.items) {
      const source = team.server_metadata?.imported_from?.id;
      if (source) map.set(source, Promise.resolve(team.id));
    }
    return map;
  };
  async function teamId(team: NonNullable<ImportUser["teams"]>[number]): Promise<string> {
    teams ??= loadTeams();
    const map = await teams;
    let id = map.get(team.id);
    if (!id) {
      id = api<{ id: string }>("POST", "/teams", {
        display_name: team.display_name,
        server_metadata: { imported_from: { provider, id: team.id } },
      }).then((created) => created.id);
      map.set(team.id, id);
    }
    return id;
  }

  return {
    async write(user) {
      let created: { id: string };
      try {
        created = await api<{ id: string }>("POST", "/users", {
          ...(user.email
            ? {
                primary_email: user.email,
                primary_email_verified: user.email_verified ?? false,
                primary_email_auth_enabled: true,
              }
            : {}),
          display_name: user.display_name ?? null,
          ...(user.profile_image_url ? { profile_image_url: user.profile_image_url } : {}),
          ...(user.password_hash ? { password_hash: user.password_hash } : {}),
          ...(user.client_metadata === undefined ? {} : { client_metadata: user.client_metadata }),
          ...(user.client_read_only_metadata === undefined
            ? {}
            : { client_read_only_metadata: user.client_read_only_metadata }),
          server_metadata: withOrigin(user.server_metadata, provider, user.id),
          ...(user.oauth_accounts?.length
            ? {
                oauth_providers: user.oauth_accounts.map((account) => ({
                  id: providerId(account.provider),
                  account_id: account.account_id,
                  email: account.email ?? null,
                })),
              }
            : {}),
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        if (error.code && EXISTING.has(error.code)) return { result: "exists" };
        return { result: "failed", reason: error.message };
      }
      for (const team of user.teams ?? []) {
        const id = await teamId(team);
        await api("POST", `/team-memberships/${id}/${created.id}`, {});
        if (team.role === "admin") await api("POST", `/team-permissions/${id}/${created.id}/team_admin`, {});
      }
      return { result: "created", id: created.id };
    },
  };
}
