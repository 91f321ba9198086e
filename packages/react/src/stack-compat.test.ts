// Source compatibility with @stackframe/react 2.8.108: a sample of Stack's documented React usage, with only its
// import changed to @gatehouse/react, type-checks against this package (TypeScript 5's compiler API, strict); and
// every name Stack's package exports is exported here too, or has a stated reason (scripts/react-exports.ts).
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as TS from "typescript5";
import { describe, expect, it } from "vitest";
import { compareExports, REASONS, ROOT } from "../../../scripts/react-exports.ts";

const ts = createRequire(import.meta.url)("typescript5") as typeof TS;
const SAMPLE = join(ROOT, "packages/react/test-fixtures/stack-usage.tsx");

/** The sample's diagnostics, as `line: message`, under the options an app on React 19 and a bundler would use. */
function compileSample(source?: string): string[] {
  const options: TS.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    // @gatehouse/react by its source, as the repository resolves it (dist/ may not be built).
    customConditions: ["gatehouse-source"],
    jsx: ts.JsxEmit.ReactJSX,
    allowImportingTsExtensions: true,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  if (source !== undefined) {
    const read = host.readFile.bind(host);
    host.readFile = (file) => (file === SAMPLE ? source : read(file));
  }
  const program = ts.createProgram([SAMPLE], options, host);
  const file = program.getSourceFile(SAMPLE);
  if (!file) throw new Error("the sample is missing");
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => {
    const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line + 1;
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

describe("Stack's documented React usage against @gatehouse/react", () => {
  it("type-checks with only the import changed", () => {
    expect(compileSample()).toEqual([]);
  }, 120_000);

  it("would fail on a hook our objects lack (the check is real)", () => {
    const { readFileSync } = createRequire(import.meta.url)("node:fs") as typeof import("node:fs");
    const broken = readFileSync(SAMPLE, "utf8").replace("team.useUsers()", "team.useMembersThatDoNotExist()");
    const errors = compileSample(broken);
    expect(errors.join("\n")).toContain("useMembersThatDoNotExist");
  }, 120_000);
});

describe("@stackframe/react's exported names", () => {
  const { stack, ours, missing } = compareExports();

  it("are all ours too, or left out with a stated reason", () => {
    expect(stack.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it("include the components and hooks this package ports", () => {
    for (const name of [
      "AuthPage",
      "CredentialSignIn",
      "CredentialSignUp",
      "MagicLinkSignIn",
      "MessageCard",
      "UserAvatar",
      "TeamSwitcher",
      "StackTheme",
      "StackClientApp",
      "StackServerApp",
      "useUser",
      "useStackApp",
    ]) {
      expect(ours, name).toContain(name);
      expect(REASONS[name], name).toBeUndefined();
    }
  });

  it("gives no reason for a name we export (no stale entries)", () => {
    expect(Object.keys(REASONS).filter((name) => ours.includes(name))).toEqual([]);
  });
});
