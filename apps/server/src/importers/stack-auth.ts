// Stack Auth: its users as its API lists them (`GET /users` pages: a JSON array, `{"items": [...]}` or NDJSON).
// Stack's API does not export password hashes: those users set a password by reset, or sign in with OAuth or a code.
import { checked, type SourceItem } from "./record.ts";
import { jsonOrNdjsonRows } from "./sources.ts";

export async function* readStackAuth(path: string): AsyncGenerator<SourceItem> {
  for await (const row of jsonOrNdjsonRows(path, "items")) {
    if ("fatal" in row) {
      yield row;
      continue;
    }
    const user = row.value as Record<string, unknown>;
    const providers = (user.oauth_providers ?? []) as {
      id: string;
      account_id: string;
      email?: string | null;
    }[];
    yield checked(row.line, {
      id: user.id,
      email: user.primary_email ?? null,
      email_verified: user.primary_email_verified ?? false,
      display_name: user.display_name ?? null,
      profile_image_url: user.profile_image_url ?? null,
      oauth_accounts: providers.map((p) => ({
        provider: p.id,
        account_id: p.account_id,
        email: p.email ?? null,
      })),
      client_metadata: user.client_metadata ?? undefined,
      client_read_only_metadata: user.client_read_only_metadata ?? undefined,
      server_metadata: user.server_metadata ?? undefined,
    });
  }
}
