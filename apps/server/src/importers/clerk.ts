// Clerk's CSV user export (Dashboard → Users → Export): ids, e-mails split into verified and unverified lists,
// bcrypt `password_digest`s. Clerk's export has no OAuth account ids, so social users sign in again by e-mail.
import { checked, type SourceItem } from "./record.ts";
import { csvRows } from "./sources.ts";

const list = (text: string | undefined) =>
  (text ?? "")
    .split(/[|,;]/)
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);

export async function* readClerk(path: string): AsyncGenerator<SourceItem> {
  for await (const row of csvRows(path)) {
    if ("fatal" in row) {
      yield row;
      continue;
    }
    const r = row.value;
    const verified = list(r.verified_email_addresses);
    const unverified = list(r.unverified_email_addresses);
    const email = (r.primary_email_address || verified[0] || unverified[0] || "").toLowerCase() || null;
    const hasher = (r.password_hasher ?? "").toLowerCase();
    if (r.password_digest && hasher && hasher !== "bcrypt") {
      yield { line: row.line, skip: `password_hasher ${hasher} is not supported` };
      continue;
    }
    const name = [r.first_name, r.last_name].filter(Boolean).join(" ") || r.username || null;
    yield checked(row.line, {
      id: r.id,
      email,
      email_verified: email !== null && verified.includes(email),
      display_name: name,
      password_hash: r.password_digest || null,
      server_metadata: {
        ...(r.username ? { username: r.username } : {}),
        ...(r.primary_phone_number ? { phone_number: r.primary_phone_number } : {}),
      },
    });
  }
}
