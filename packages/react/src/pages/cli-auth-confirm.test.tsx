// @vitest-environment happy-dom
// The CLI login confirmation page against a real server: a CLI (our SDK's promptCliLogin) waits while the signed-in
// user authorizes it here, then gets a session of that user; signed out, missing and spent codes.
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWithApp, visit } from "../test-support/render.tsx";
import { liveSuite } from "./auth/test-helpers.ts";
import { CliAuthConfirm } from "./cli-auth-confirm.tsx";

const live = liveSuite();
let users = 0;

async function signedIn() {
  const app = live.newApp();
  const result = await app.signUpWithCredential({
    email: `cli-${++users}@example.com`,
    password: "correct-horse-9",
    noRedirect: true,
  });
  if (result.status === "error") throw result.error;
  return { app, userId: (await app.getUser({ or: "throw" })).id };
}

/** A CLI login in progress: its confirmation link, and the refresh token (or error) it ends with. */
async function startCli() {
  const cli = live.newApp();
  let link = "";
  const outcome = cli.promptCliLogin({
    appUrl: "http://localhost:3000",
    waitTimeMillis: 20,
    maxAttempts: 500,
    promptLink: (url) => {
      link = url;
    },
  });
  await waitFor(() => expect(link).not.toBe(""));
  return { url: new URL(link), outcome };
}

describe("CLI login confirmation", () => {
  it("lets the signed-in user authorize the waiting CLI, which then gets a session of that user", async () => {
    const { app, userId } = await signedIn();
    const { url, outcome } = await startCli();
    expect(url.pathname).toBe("/handler/cli-auth-confirm");
    visit(url.pathname + url.search);
    await renderWithApp(app, <CliAuthConfirm />);
    await userEvent.click(await screen.findByRole("button", { name: "Authorize" }));
    expect((await screen.findByRole("status")).textContent).toMatch(/command-line application is authorized/);

    const result = await outcome;
    if (result.status === "error") throw result.error;
    const sessions = await live.admin("GET", `/auth/sessions?user_id=${userId}`);
    expect(sessions.items.length).toBe(2);
  });

  it("refuses a spent code", async () => {
    const { app } = await signedIn();
    const { url, outcome } = await startCli();
    expect((await app.completeCliLogin(url.searchParams.get("login_code") ?? "")).status).toBe("ok");
    await outcome;
    visit(url.pathname + url.search);
    await renderWithApp(app, <CliAuthConfirm />);
    await userEvent.click(await screen.findByRole("button", { name: "Authorize" }));
    expect(await screen.findByText(/not valid or has expired/)).toBeTruthy();
  });

  it("asks a signed-out visitor to sign in first", async () => {
    visit("/handler/cli-auth-confirm?login_code=abc");
    await renderWithApp(live.newApp(), <CliAuthConfirm />);
    await userEvent.click(await screen.findByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(live.navigations[0]).toMatch(/^\/handler\/sign-in\?after_auth_return_to=/));
  });

  it("explains a link without a code", async () => {
    visit("/handler/cli-auth-confirm");
    await renderWithApp(live.newApp(), <CliAuthConfirm />);
    expect(await screen.findByText(/has no login code/)).toBeTruthy();
  });
});
