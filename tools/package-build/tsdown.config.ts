// Builds the published libraries (@gatehouse/contract, @gatehouse/sdk, @gatehouse/react) to each package's dist/:
// ESM, bundled .d.ts and source maps. This workspace exists so tsdown's declaration step gets the TypeScript 5 compiler
// API (its peer), while the rest of the repository type-checks with TypeScript 7, which has no JS API.
import { fileURLToPath } from "node:url";
import { defineConfig, type UserConfig } from "tsdown";

const packageDir = (name: string) => fileURLToPath(new URL(`../../packages/${name}/`, import.meta.url));

function library(name: string, entry: Record<string, string>, platform: UserConfig["platform"]): UserConfig {
  return {
    name: `@gatehouse/${name}`,
    cwd: packageDir(name),
    entry,
    format: "esm",
    platform,
    // Apps target current browsers and Node 20.19+, which run ES2023 as written.
    target: "es2023",
    tsconfig: "tsconfig.json",
    dts: { sourcemap: true },
    sourcemap: true,
    clean: true,
    // dependencies and peerDependencies stay imports (tsdown's default): react once, and the SDK shared with the app.
    outExtensions: () => ({ js: ".js", dts: ".d.ts" }),
  };
}

export default defineConfig([
  library(
    "contract",
    {
      index: "src/index.ts",
      "known-errors": "src/known-errors.ts",
      "known-error": "src/known-error.ts",
      headers: "src/headers.ts",
      locales: "src/locales.ts",
      "claim-names": "src/claim-names.ts",
      "known-error-status": "src/known-error-status.ts",
      "client-errors": "src/client-errors.ts",
    },
    "neutral",
  ),
  library("sdk", { index: "src/index.ts" }, "neutral"),
  library("react", { index: "src/index.ts", ui: "src/ui/index.ts" }, "browser"),
]);
