// Supabase Auth: the `auth.users` table (CSV from the table editor or `\copy`, or JSON rows) with bcrypt
// `encrypted_password`, and optionally `auth.identities` for OAuth links (`--identities`).
import { checked, parseJsonColumn, type SourceItem } from "./record.ts";
import { groupRows, tableRows } from "./sources.ts";

const asObject = (value: unknown) =>
  (typeof value === "string" ? parseJsonColumn(value) : value) as Record<string, unknown> | undefined;

export async function* readSupabase(path: string, identitiesPath?: string): AsyncGenerator<SourceItem> {
  const identities = identitiesPath ? await groupRows(identitiesPath, "user_id") : new Map();
  for await (const row of tableRows(path)) {
    if ("fatal" in row) {
      yield row;
      continue;
    }
    const user = row.value as Record<string, unknown>;
    if (String(user.is_anonymous) === "true") {
      yield { line: row.line, skip: "anonymous user" };
      continue;
    }
    const meta = asObject(user.raw_user_meta_data) ?? {};
    const social = (identities.get(String(user.id)) ?? []).filter(
      (identity: Record<string, unknown>) => identity.provider !== "email",
    );
    const email = typeof user.email === "string" && user.email ? user.email.toLowerCase() : null;
    yield checked(row.line, {
      id: user.id,
      email,
      email_verified: Boolean(user.email_confirmed_at),
      display_name: (meta.full_name ?? meta.name ?? null) as string | null,
      profile_image_url: (meta.avatar_url ?? null) as string | null,
      password_hash: user.encrypted_password || null,
      oauth_accounts: social.map((identity: Record<string, unknown>) => {
        const data = asObject(identity.identity_data) ?? {};
        return {
          provider: String(identity.provider),
          account_id: String(identity.provider_id ?? data.sub ?? identity.id),
          email: (data.email ?? null) as string | null,
        };
      }),
      client_metadata: Object.keys(meta).length ? meta : undefined,
      server_metadata: asObject(user.raw_app_meta_data),
    });
  }
}
