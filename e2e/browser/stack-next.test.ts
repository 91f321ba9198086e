// Stack's own UI in Chromium against the real Gatehouse server: the app of e2e/stack-apps/next, made on Stack's
// published @stackframe/stack as Stack's docs and init-stack set one up, built by `next build` (cached by a hash of
// its sources and settings) and run by `next start`, its settings in the environment variables Stack reads.
import { buildNext, startNext } from "./stack-app-builds.ts";
import { STACK_APP_KEYS } from "./stack-app-setup.ts";
import { stackUiSuite } from "./stack-app-suite.ts";

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
    await buildNext(env);
    return startNext(env);
  },
});
