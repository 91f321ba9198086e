// Stack's own UI in Chromium against the real Gatehouse server: the app of e2e/stack-apps/next, made on Stack's
// published @stackframe/stack as Stack's docs and init-stack set one up, built by `next build --turbopack` (cached by
// a hash of its sources and settings) and run by `next start`, its settings in the environment variables Stack reads.
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { buildNext, nextRoot, startNext } from "./stack-app-builds.ts";
import { STACK_APP_KEYS } from "./stack-app-setup.ts";
import { stackUiSuite } from "./stack-app-suite.ts";

/**
 * Next.js 15 (the app's pin: under 16, Stack's account-settings sidebar does not change the URL) loads
 * next.config.ts and checks types through TypeScript's JavaScript API, which TypeScript 7, the repository's, no
 * longer has. npm cannot nest a second TypeScript under this app (its workspace sits inside e2e/, which holds 7), so
 * the app is given the 5.9 copy the repository installs as `typescript5`, as a create-next-app project has its own.
 */
function giveNextTypeScript5() {
  const link = join(nextRoot, "node_modules", "typescript");
  if (existsSync(link)) return;
  const typescript5 = dirname(createRequire(import.meta.url).resolve("typescript5/package.json"));
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(typescript5, link, "dir");
}

stackUiSuite({
  name: "stack-next",
  preferredPort: 8792,
  async start(apiUrl) {
    const env = {
      NEXT_PUBLIC_STACK_API_URL: apiUrl,
      NEXT_PUBLIC_STACK_PROJECT_ID: STACK_APP_KEYS.projectId,
      NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: STACK_APP_KEYS.pck,
      STACK_SECRET_SERVER_KEY: STACK_APP_KEYS.ssk,
    };
    giveNextTypeScript5();
    await buildNext(env);
    return startNext(env);
  },
});
