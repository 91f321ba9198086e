// The providers `gatehouse import` knows, each a reader from its export format to generic import records.
import { readAuth0, readAuth0Hashes } from "./auth0.ts";
import { readBetterAuth } from "./better-auth.ts";
import { readClerk } from "./clerk.ts";
import { type FirebaseHashParameters, readFirebase } from "./firebase.ts";
import { readGeneric } from "./generic.ts";
import type { SourceItem } from "./record.ts";
import { readStackAuth } from "./stack-auth.ts";
import { readSupabase } from "./supabase.ts";

export type ImportOptions = {
  /** Auth0: the password-hash export (NDJSON). */
  passwords?: string;
  /** Firebase: the project's password hash parameters. */
  firebase?: FirebaseHashParameters;
  /** Supabase: the auth.identities table. */
  identities?: string;
  /** Better Auth: the account table. */
  accounts?: string;
};

export const PROVIDERS = [
  "generic",
  "clerk",
  "auth0",
  "firebase",
  "supabase",
  "better-auth",
  "stack-auth",
] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A function that reads the file from the start each time it is called (the import reads it twice). */
export async function importReader(
  provider: Provider,
  file: string,
  options: ImportOptions,
): Promise<() => AsyncIterable<SourceItem>> {
  switch (provider) {
    case "generic":
      return () => readGeneric(file);
    case "clerk":
      return () => readClerk(file);
    case "auth0": {
      const hashes = options.passwords ? await readAuth0Hashes(options.passwords) : undefined;
      return () => readAuth0(file, hashes);
    }
    case "firebase":
      return () => readFirebase(file, options.firebase);
    case "supabase":
      return () => readSupabase(file, options.identities);
    case "better-auth":
      return () => readBetterAuth(file, options.accounts);
    case "stack-auth":
      return () => readStackAuth(file);
  }
}
