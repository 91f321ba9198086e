// One suite of Stack's own UI against Gatehouse, for either app of e2e/stack-apps/: the server, the app built for
// it (cached) and served, Chromium, the flows of stack-app-flows.ts, and the assertion: no page error, no console
// error, and no API answer >= 400 in these normal flows, as the browser saw them and as the server logged them
// (the Next.js app's server side calls the API too).
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTURE_TOTP_SECRETS, type FlowContext, stackUiSteps } from "./stack-app-flows.ts";
import {
  configureProject,
  openBrowser,
  recordPage,
  serverAnswers,
  startStackAppServer,
} from "./stack-app-setup.ts";

export type StackApp = { url: string; close: () => Promise<void>; output?: () => string };

export function stackUiSuite(options: {
  /** The suite's name: its screenshots go to test-output/<name>/. */
  name: string;
  /** The Gatehouse port the cached build is made for (another one when it is taken: the app is built again). */
  preferredPort: number;
  /** Builds the app for the server at `apiUrl` if needed, and serves it. */
  start: (apiUrl: string) => Promise<StackApp>;
}) {
  describe(`Stack's UI (${options.name}) against Gatehouse`, () => {
    let gatehouse: { server: RunningServer; stop: () => Promise<void> };
    let app: StackApp;
    let browser: Browser;
    let flow: FlowContext;
    let logOffset = 0;

    beforeAll(async () => {
      gatehouse = await startStackAppServer(options.name, options.preferredPort);
      app = await options.start(gatehouse.server.baseUrl);
      await configureProject(gatehouse.server, app.url);
      const opened = await openBrowser(options.name);
      browser = opened.browser;
      await opened.context.addInitScript(CAPTURE_TOTP_SECRETS);
      flow = {
        server: gatehouse.server,
        appUrl: app.url,
        context: opened.context,
        page: opened.page,
        record: recordPage(opened.page),
        screenshot: opened.screenshot,
      };
      logOffset = gatehouse.server.output().length;
    }, 400_000);

    afterAll(async () => {
      await browser?.close();
      await app?.close();
      await gatehouse?.stop();
    });

    for (const [name, run] of stackUiSteps(() => flow)) {
      it(name, async () => {
        try {
          await run();
        } catch (error) {
          // What the page showed when the step failed, for the person reading the failure.
          await flow.screenshot(flow.page, `failed-${name.replace(/\W+/g, "-")}`).catch(() => {});
          throw error;
        }
      }, 60_000);
    }

    it("gave no page error, no console error and no API answer >= 400", () => {
      const { answers, pageErrors, consoleErrors } = flow.record;
      const failed = answers
        .filter((a) => a.status >= 400)
        .map((a) => `[${a.step}] ${a.method} ${a.path} -> ${a.status} ${a.body.slice(0, 400)}`);
      const browserPaths = new Set(answers.map((a) => `${a.method} ${a.path.split("?")[0]}`));
      // What the server answered that the browser did not ask: the app's server side (Next.js) calls the API too.
      const failedOnServerSide = serverAnswers(flow.server, logOffset)
        .filter((line) => line.status >= 400 && !browserPaths.has(`${line.method} ${line.path}`))
        .map((line) => `[app server] ${line.method} ${line.path} -> ${line.status}`);
      const report = [
        ...failed,
        ...failedOnServerSide,
        ...pageErrors.map((e) => `page error ${e}`),
        ...consoleErrors.map((e) => `console error ${e}`),
      ];
      if (report.length > 0) console.log(`${options.name}: what went wrong\n${report.join("\n")}`);
      expect(answers.length).toBeGreaterThan(0);
      expect(report).toEqual([]);
    });
  });
}
