// @vitest-environment happy-dom
// Stack's building blocks against a real server: AuthPage (firstTab, extraInfo), CredentialSignIn signing in,
// MagicLinkSignIn, MessageCard's actions, UserAvatar, TeamSwitcher's onChange, and StackTheme's colors (and its
// refusal of values that would break out of the style sheet).
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { StackProvider } from "../provider.tsx";
import { createLive, type LiveSetup } from "../test-support/live.ts";
import { renderWithApp } from "../test-support/render.tsx";
import { AuthPage, CredentialSignIn, MagicLinkSignIn } from "./auth-components.tsx";
import { MessageCard, UserAvatar } from "./message-card.tsx";
import { StackTheme } from "./stack-theme.tsx";
import { TeamSwitcher } from "./team-switcher.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive({ client_team_creation_enabled: true });
});
afterAll(() => live.close());
afterEach(cleanup);

const PASSWORD = "correct horse battery";

async function signedUp() {
  const app = live.newApp();
  const email = `${crypto.randomUUID()}@example.com`;
  await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  return { app, email };
}

describe("sign-in building blocks", () => {
  it("AuthPage opens on the tab asked for and shows extraInfo", async () => {
    await renderWithApp(
      live.newApp(),
      <AuthPage type="sign-in" firstTab="magic-link" extraInfo={<>By signing in you agree.</>} />,
    );
    const tab = await screen.findByRole("tab", { name: "E-mail code" });
    expect(tab.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByText("By signing in you agree.")).toBeTruthy();
  });

  it("CredentialSignIn signs a user in", async () => {
    const { email } = await signedUp();
    const app = live.newApp();
    await renderWithApp(app, <CredentialSignIn />);
    await userEvent.type(await screen.findByLabelText("E-mail"), email);
    await userEvent.type(screen.getByLabelText("Password"), PASSWORD);
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(async () => expect((await app.getUser())?.primaryEmail).toBe(email));
  });

  it("MagicLinkSignIn sends a code to a new address", async () => {
    const email = `${crypto.randomUUID()}@example.com`;
    await renderWithApp(live.newApp(), <MagicLinkSignIn />);
    await userEvent.type(await screen.findByLabelText("E-mail"), email);
    await userEvent.click(screen.getByRole("button", { name: "E-mail me a code" }));
    expect(await screen.findByLabelText("Code from the e-mail", {}, { timeout: 8000 })).toBeTruthy();
    await waitFor(async () => expect((await live.lastEmail(email)).text).toMatch(/code/i));
  });
});

describe("MessageCard and UserAvatar", () => {
  it("MessageCard shows its title and text and runs its actions", async () => {
    const primary = vi.fn();
    const secondary = vi.fn();
    await renderWithApp(
      live.newApp(),
      <MessageCard
        title="Check your inbox"
        primaryButtonText="Back home"
        primaryAction={primary}
        secondaryButtonText="Later"
        secondaryAction={secondary}
      >
        We sent you an e-mail.
      </MessageCard>,
    );
    expect(screen.getByRole("heading", { name: "Check your inbox" })).toBeTruthy();
    expect(screen.getByText("We sent you an e-mail.")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Back home" }));
    await userEvent.click(screen.getByRole("button", { name: "Later" }));
    expect(primary).toHaveBeenCalledOnce();
    expect(secondary).toHaveBeenCalledOnce();
  });

  it("UserAvatar shows the initials at the size asked for", async () => {
    const { container } = await renderWithApp(
      live.newApp(),
      <UserAvatar user={{ displayName: "Ada Lovelace" }} size={48} />,
    );
    const avatar = container.querySelector(".gh-avatar") as HTMLElement;
    expect(avatar.textContent).toBe("AL");
    expect(avatar.style.width).toBe("48px");
  });
});

describe("TeamSwitcher", () => {
  it("offers the user's teams and hands the chosen one to onChange", async () => {
    const { app } = await signedUp();
    const user = await app.getUser({ or: "throw" });
    const first = await user.createTeam({ displayName: "Alpha" });
    await user.createTeam({ displayName: "Beta" });
    const chosen: string[] = [];
    await renderWithApp(
      app,
      <TeamSwitcher
        teamId={first.id}
        onChange={async (team) => {
          chosen.push(team.displayName);
        }}
      />,
    );
    await userEvent.click(await screen.findByRole("button", { name: "Switch team, current: Alpha" }));
    await userEvent.click(await screen.findByRole("menuitemradio", { name: /Beta/ }));
    await waitFor(() => expect(chosen).toEqual(["Beta"]));
  });
});

describe("StackTheme", () => {
  it("turns Stack's colors into the pages' properties, per scheme, and refuses unsafe values", () => {
    const { container } = render(
      <StackProvider app={live.newApp()}>
        <StackTheme
          theme={{
            light: { primary: "hsl(10, 80%, 40%)", background: "red; } body { display: none" },
            dark: { primary: "#123456" },
            radius: "4px",
          }}
        >
          <p>inside</p>
        </StackTheme>
      </StackProvider>,
    );
    const sheet = container.querySelector("style")?.textContent ?? "";
    expect(sheet).toContain("--gh-primary: hsl(10, 80%, 40%);");
    expect(sheet).toMatch(/\[data-theme="dark"\] \{ --gh-primary: #123456; \}/);
    expect(sheet).toContain("border-radius: 4px");
    expect(sheet).not.toContain("display: none");
    expect(screen.getByText("inside")).toBeTruthy();
  });
});
