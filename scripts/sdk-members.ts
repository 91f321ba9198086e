// Compares the public members of Stack's SDK classes (@stackframe/js 2.8.108, read from its .d.ts with the
// TypeScript compiler API) with ours (packages/sdk), and lists every member of Stack's that ours lacks without a
// reason in REASONS. `npx tsx scripts/sdk-members.ts` prints the table; packages/sdk/src/members.test.ts fails on gaps.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as TS from "typescript5";
import { compareEntries, ts } from "./stack-comparison.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const STACK_ENTRY = join(root, "node_modules/@stackframe/js/dist/index.d.ts");
const OUR_ENTRY = join(root, "packages/sdk/src/index.ts");

/** Stack's type → the type of ours that plays its part (the same name unless said). */
export const COMPARED: Record<string, string> = {
  StackClientApp: "StackClientApp",
  StackServerApp: "StackServerApp",
  StackAdminApp: "StackAdminApp",
  CurrentUser: "CurrentUser",
  CurrentServerUser: "CurrentServerUser",
  ServerUser: "ServerUser",
  Team: "Team",
  ServerTeam: "ServerTeam",
  TeamUser: "TeamUser",
  ContactChannel: "ContactChannel",
  AdminProject: "AdminProject",
  Project: "Project",
};

/** Stack's object hooks: React-only, so the SDK has none; @gatehouse/react attaches them (react-compat). */
const HOOKED =
  "React hook: @gatehouse/react's apps and the objects its hooks hand out carry it (packages/react/src/object-hooks.ts)";

/**
 * Why a member of Stack's is absent from ours: `Type.member` (or `*.member` for every type). "NOT YET" entries are
 * members still to port; the rest are left out on purpose.
 */
export const REASONS: Record<string, string> = {
  // Stack's internals and generic helpers, not part of its documented API.
  "*.version": "Stack's internal SDK version field; ours is SDK_VERSION",
  "*.toClientJson": "serializes Stack's internal app state for its Next.js server components",
  "*.useNavigate": "Stack's React-in-Next internal",
  "*.useUser": HOOKED,
  "*.useProject": HOOKED,
  "*.useTeam": HOOKED,
  "*.useTeams": HOOKED,
  "*.useContactChannels": HOOKED,
  "*.usePermission": HOOKED,
  "*.usePermissions": HOOKED,
  "*.useUsers": HOOKED,
  "*.useOAuthProviders": HOOKED,
  "*.useOAuthProvider": HOOKED,
  "*.useConnectedAccount": HOOKED,
  "*.useApiKeys": HOOKED,
  "*.useNotificationCategories": HOOKED,
  "*.useConfig": HOOKED,
  "*.useItem": HOOKED,
  "*.useProducts": HOOKED,
  "*.useBilling": HOOKED,
  // Left out on purpose.
  "ServerUser.registerPasskey":
    "WebAuthn needs the user's browser: a server cannot register a passkey for a user (ours: CurrentUser.registerPasskey)",
  "ServerUser.updatePassword":
    "needs the user's session to check the old password (Stack's server implementation sends none); servers use setPassword",
};

export type TypeComparison = {
  stack: string;
  ours: string;
  missing: string[];
  explained: Record<string, string>;
};

function publicMembers(checker: TS.TypeChecker, type: TS.Type): string[] {
  const names = new Set<string>();
  for (const property of checker.getPropertiesOfType(type)) {
    const name = property.getName();
    // Symbol-keyed members (Stack's internals symbol) and private or `_`-prefixed ones are not public API.
    if (name.startsWith("__@") || name.startsWith("#") || name.startsWith("_")) continue;
    const hidden = (property.declarations ?? []).some(
      (d) => ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected),
    );
    if (!hidden) names.add(name);
  }
  return [...names].sort();
}

function exportedType(checker: TS.TypeChecker, file: TS.SourceFile, name: string): TS.Type | undefined {
  const module = checker.getSymbolAtLocation(file);
  if (!module) return undefined;
  let symbol = checker.getExportsOfModule(module).find((s) => s.getName() === name);
  if (!symbol) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

export function compareMembers(): TypeComparison[] {
  const { checker, stackFile, ourFile } = compareEntries(STACK_ENTRY, OUR_ENTRY, "SDK");
  return Object.entries(COMPARED).map(([stack, ours]) => {
    const theirs = exportedType(checker, stackFile, stack);
    const mine = exportedType(checker, ourFile, ours);
    if (!theirs) throw new Error(`@stackframe/js exports no type ${stack}`);
    if (!mine) throw new Error(`@gatehouse/sdk exports no type ${ours}`);
    const have = new Set(publicMembers(checker, mine));
    const missing: string[] = [];
    const explained: Record<string, string> = {};
    for (const member of publicMembers(checker, theirs)) {
      if (have.has(member)) continue;
      const reason = REASONS[`${stack}.${member}`] ?? REASONS[`*.${member}`];
      if (reason) explained[member] = reason;
      else missing.push(member);
    }
    return { stack, ours, missing, explained };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = compareMembers();
  let gaps = 0;
  for (const { stack, ours, missing, explained } of results) {
    const label = stack === ours ? stack : `${stack} (ours: ${ours})`;
    console.log(
      `\n${label}: ${missing.length} missing, ${Object.keys(explained).length} left out with a reason`,
    );
    for (const member of missing) console.log(`  MISSING  ${member}`);
    if (process.argv.includes("--verbose"))
      for (const [member, reason] of Object.entries(explained))
        console.log(`  reason   ${member}: ${reason}`);
    gaps += missing.length;
  }
  console.log(`\n${gaps} members of Stack's SDK missing from ours without a reason.`);
  process.exitCode = gaps === 0 ? 0 : 1;
}
