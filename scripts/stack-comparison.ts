// The TypeScript program both comparison scripts read Stack's package and ours with (sdk-members.ts, react-exports.ts):
// TypeScript 5.9's compiler API (TypeScript 7, the project's compiler, has no JavaScript API), aliased `typescript5`.
import { createRequire } from "node:module";
import type * as TS from "typescript5";

export const ts = createRequire(import.meta.url)("typescript5") as typeof TS;

/** Stack's entry and ours in one program, ours resolved by source (dist/ may not be built). */
export function compareEntries(stackEntry: string, ourEntry: string, what: string) {
  const program = ts.createProgram([stackEntry, ourEntry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["gatehouse-source"],
    allowImportingTsExtensions: true,
    jsx: ts.JsxEmit.ReactJSX,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  });
  const checker = program.getTypeChecker();
  const stackFile = program.getSourceFile(stackEntry);
  const ourFile = program.getSourceFile(ourEntry);
  if (!stackFile || !ourFile) throw new Error(`cannot read the ${what} entry points`);
  return { checker, stackFile, ourFile };
}
