// Stack's own UI in Chromium against the real Gatehouse server: the app of e2e/stack-apps/react-vite, made on
// Stack's published @stackframe/react as Stack's React docs set one up, unchanged but for the base URL.
import { buildReactVite, serveReactVite } from "./stack-app-builds.ts";
import { STACK_APP_KEYS } from "./stack-app-setup.ts";
import { stackUiSuite } from "./stack-app-suite.ts";

stackUiSuite({
  name: "stack-react",
  preferredPort: 8791,
  async start(apiUrl) {
    await buildReactVite({
      VITE_STACK_API_URL: apiUrl,
      VITE_STACK_PROJECT_ID: STACK_APP_KEYS.projectId,
      VITE_STACK_PUBLISHABLE_CLIENT_KEY: STACK_APP_KEYS.pck,
    });
    return serveReactVite();
  },
});
