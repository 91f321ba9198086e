// Lists the names @stackframe/react 2.8.108 exports beside @gatehouse/react's (both read with the TypeScript compiler
// API), and each of Stack's names ours lacks without a reason in REASONS. `npx tsx scripts/react-exports.ts` prints
// the table; packages/react/src/stack-compat.test.ts fails on a gap.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as TS from "typescript5";
import { compareEntries } from "./stack-comparison.ts";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const STACK_ENTRY = join(ROOT, "node_modules/@stackframe/react/dist/index.d.ts");
const OUR_ENTRY = join(ROOT, "packages/react/src/index.ts");

const ADMIN =
  "admin-side types of Stack's internal dashboard; ours are the admin SDK's (StackAdminApp, AdminProject)";
const HEXCLAVE = "Stack's new brand name for the same export (Hexclave…); ours keeps the Stack… names";

const SDK_GAP = "NOT YET: the SDK has no such type or member to alias (issue 16 ports Stack's SDK members)";
const INTERNAL = "Stack internals or Next/Convex integration, not part of a React app's documented usage";

/** Why a name @stackframe/react exports is absent from ours. */
export const REASONS: Record<string, string> = {
  AnalyticsOptions: "session replay and analytics capture are not part of Gatehouse (PRODUCT.md)",
  AnalyticsReplayOptions: "session replay and analytics capture are not part of Gatehouse (PRODUCT.md)",
  Auth: "Stack's base of CurrentUser's auth members; ours are on CurrentUser itself",
  User: "Stack's base user type; ours names the concrete ones (CurrentUser, TeamUser, ServerUser)",
  CliAuthConfirmationState: "our CLI confirmation page is CliAuthConfirm, with no state hook to type",
  CliAuthConfirmationStatus: "our CLI confirmation page is CliAuthConfirm, with no state hook to type",
  useCliAuthConfirmation:
    "NOT YET: a headless hook for the CLI confirmation page (ours is the CliAuthConfirm page)",
  Connection: SDK_GAP,
  ServerContactChannel: SDK_GAP,
  ServerOAuthProvider: SDK_GAP,
  ServerTeamCreateOptions: SDK_GAP,
  ServerTeamMemberProfile: SDK_GAP,
  ServerTeamUpdateOptions: SDK_GAP,
  OAuthProviderConfig: SDK_GAP,
  ProjectConfig: SDK_GAP,
  OAuthScopesOnSignIn: SDK_GAP,
  HandlerUrlOptions: SDK_GAP,
  StackClientAppConstructor: INTERNAL,
  StackServerAppConstructor: INTERNAL,
  StackAdminAppConstructor: INTERNAL,
  StackClientAppJson: INTERNAL,
  StackConfig:
    "Stack's config-as-code file (stack.config.ts) for its hosted dashboard; Gatehouse configures projects over the admin API",
  defineStackConfig:
    "Stack's config-as-code file (stack.config.ts) for its hosted dashboard; Gatehouse configures projects over the admin API",
  getConvexProvidersConfig: INTERNAL,
  getPagePrompt: INTERNAL,
  stackAppInternalsSymbol: INTERNAL,
  ...Object.fromEntries(
    [
      "HexclaveAdminApp",
      "HexclaveAdminAppConstructor",
      "HexclaveAdminAppConstructorOptions",
      "HexclaveClientApp",
      "HexclaveClientAppConstructor",
      "HexclaveClientAppConstructorOptions",
      "HexclaveClientAppJson",
      "HexclaveConfig",
      "HexclaveHandler",
      "HexclaveProvider",
      "HexclaveServerApp",
      "HexclaveServerAppConstructor",
      "HexclaveServerAppConstructorOptions",
      "HexclaveTheme",
      "defineHexclaveConfig",
      "useHexclaveApp",
    ].map((name) => [name, HEXCLAVE]),
  ),
  ...Object.fromEntries(
    [
      "AdminDomainConfig",
      "AdminEmailConfig",
      "AdminEmailOutbox",
      "AdminEmailOutboxRecipient",
      "AdminEmailOutboxSimpleStatus",
      "AdminEmailOutboxStatus",
      "AdminOAuthProviderConfig",
      "AdminOwnedProject",
      "AdminProjectConfig",
      "AdminProjectConfigUpdateOptions",
      "AdminProjectCreateOptions",
      "AdminProjectPermission",
      "AdminProjectPermissionDefinition",
      "AdminProjectPermissionDefinitionCreateOptions",
      "AdminProjectPermissionDefinitionUpdateOptions",
      "AdminProjectUpdateOptions",
      "AdminSendAttemptError",
      "AdminSentEmail",
      "AdminTeamPermission",
      "AdminTeamPermissionDefinition",
      "AdminTeamPermissionDefinitionCreateOptions",
      "AdminTeamPermissionDefinitionUpdateOptions",
      "EmailOutboxListOptions",
      "EmailOutboxListResult",
      "EmailOutboxUpdateOptions",
      "InternalApiKey",
      "InternalApiKeyBase",
      "InternalApiKeyBaseCrudRead",
      "InternalApiKeyCreateOptions",
      "InternalApiKeyFirstView",
      "CurrentInternalServerUser",
    ].map((name) => [name, ADMIN]),
  ),
};

export type ExportComparison = { stack: string[]; ours: string[]; missing: string[]; explained: string[] };

function exportsOf(checker: TS.TypeChecker, file: TS.SourceFile): string[] {
  const module = checker.getSymbolAtLocation(file);
  if (!module) throw new Error(`cannot read the exports of ${file.fileName}`);
  return checker
    .getExportsOfModule(module)
    .map((s) => s.getName())
    .sort();
}

export function compareExports(): ExportComparison {
  const { checker, stackFile, ourFile } = compareEntries(STACK_ENTRY, OUR_ENTRY, "React packages'");
  const stack = exportsOf(checker, stackFile);
  const ours = exportsOf(checker, ourFile);
  const have = new Set(ours);
  const absent = stack.filter((name) => !have.has(name));
  return {
    stack,
    ours,
    missing: absent.filter((name) => !REASONS[name]),
    explained: absent.filter((name) => REASONS[name]),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { stack, ours, missing, explained } = compareExports();
  const have = new Set(ours);
  for (const name of stack) {
    const mark = have.has(name) ? "both   " : REASONS[name] ? "reason " : "MISSING";
    console.log(`${mark}  ${name}${!have.has(name) && REASONS[name] ? ` (${REASONS[name]})` : ""}`);
  }
  console.log(
    `\n${stack.length} names in @stackframe/react, ${stack.length - missing.length - explained.length} in ours too, ${explained.length} left out with a reason, ${missing.length} missing.`,
  );
  process.exitCode = missing.length === 0 ? 0 : 1;
}
