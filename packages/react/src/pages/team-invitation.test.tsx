// @vitest-environment happy-dom
// The team-invitation page against a real server: invitations are sent by the server to a real inbox and the link's
// code read from it. Signed out, missing and invalid codes, joining (membership checked at the server), ignoring, and a
// used code refused.
import { cleanup, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, visit } from "../test-support/render.tsx";
import { liveSuite } from "./auth/test-helpers.ts";
import { TeamInvitation } from "./team-invitation.tsx";

const live = liveSuite();
let users = 0;

/** A promise the test settles: holds a real call back so the page's in-between state can be seen. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A fresh app with a newly signed-up user. */
async function signUp() {
  const app = live.newApp();
  const email = `invitee-${++users}@example.com`;
  const result = await app.signUpWithCredential({ email, password: "correct-horse-9", noRedirect: true });
  if (result.status === "error") throw result.error;
  const user = await app.getUser({ or: "throw" });
  return { app, email, userId: user.id };
}

/** A team (created by the server) and an invitation e-mailed to `email`; answers the team and the link's code. */
async function invite(email: string, teamName: string) {
  const team = await live.admin("POST", "/teams", { display_name: teamName });
  await live.admin("POST", "/team-invitations/send-code", {
    team_id: team.id,
    email,
    callback_url: "http://localhost:3000/handler/team-invitation",
  });
  return { teamId: team.id as string, code: await live.codeFromEmail(email) };
}

const teamIdsOf = async (userId: string) =>
  (await live.admin("GET", `/teams?user_id=${userId}`)).items.map((team: { id: string }) => team.id);

describe("signed out", () => {
  it("asks to sign in and comes back to the invitation afterwards", async () => {
    visit("/handler/team-invitation?code=abc123");
    await renderWithApp(live.newApp(), <TeamInvitation />);
    expect(await screen.findByRole("heading", { name: "Team invitation" })).toBeTruthy();
    expect(screen.getByText(/sign in or create an account to accept it/i)).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() =>
      expect(live.navigations).toEqual([
        `/handler/sign-in?after_auth_return_to=${encodeURIComponent("/handler/team-invitation?code=abc123")}`,
      ]),
    );
  });
});

describe("signed in", () => {
  it("shows the team's name, joins it, and refuses the used code afterwards", async () => {
    const { app, email, userId } = await signUp();
    const { teamId, code } = await invite(email, "Acme Research");
    visit(`/handler/team-invitation?code=${code}`);
    const user = userEvent.setup();
    await renderWithApp(app, <TeamInvitation />);

    expect(await screen.findByText("You have been invited to join Acme Research.")).toBeTruthy();
    expect(await teamIdsOf(userId)).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Join Acme Research" }));

    expect((await screen.findByRole("status")).textContent).toBe("You joined Acme Research.");
    expect(screen.getByRole("link", { name: "Go home" }).getAttribute("href")).toBe("/");
    expect(await teamIdsOf(userId)).toEqual([teamId]);

    cleanup();
    await renderWithApp(app, <TeamInvitation />);
    expect((await screen.findByRole("alert")).textContent).toBe("This invitation has already been used.");
    expect(screen.queryByRole("button", { name: /join/i })).toBeNull();
  });

  it("shows progress while it checks the code and while it joins", async () => {
    const { app, email } = await signUp();
    const { code } = await invite(email, "Slow Team");
    const checking = gate();
    const joining = gate();
    const verify = app.verifyTeamInvitationCode;
    const accept = app.acceptTeamInvitation.bind(app);
    vi.spyOn(app, "verifyTeamInvitationCode").mockImplementation(async (c) => {
      await checking.opened;
      return verify(c);
    });
    vi.spyOn(app, "acceptTeamInvitation").mockImplementation(async (c) => {
      await joining.opened;
      return accept(c);
    });
    visit(`/handler/team-invitation?code=${code}`);
    const user = userEvent.setup();
    await renderWithApp(app, <TeamInvitation />);

    expect(await screen.findByRole("status", { name: "Loading…" })).toBeTruthy();
    checking.open();
    const join = await screen.findByRole("button", { name: "Join Slow Team" });
    await user.click(join);
    expect(join.getAttribute("aria-busy")).toBe("true");
    await user.click(join);
    joining.open();
    expect((await screen.findByRole("status")).textContent).toBe("You joined Slow Team.");
    expect(app.acceptTeamInvitation).toHaveBeenCalledOnce();
  });

  it("ignores the invitation: goes home without joining", async () => {
    const { app, email, userId } = await signUp();
    const { code } = await invite(email, "Ignored Team");
    visit(`/handler/team-invitation?code=${code}`);
    await renderWithApp(app, <TeamInvitation />);
    await userEvent.click(await screen.findByRole("button", { name: "Ignore" }));
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    expect(await teamIdsOf(userId)).toEqual([]);
  });

  it("says when the code is unknown", async () => {
    const { app } = await signUp();
    visit(`/handler/team-invitation?code=${"a".repeat(45)}`);
    await renderWithApp(app, <TeamInvitation />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "This invitation link is not valid. Ask the team for a new invitation.",
    );
    expect(screen.getByRole("link", { name: "Go home" })).toBeTruthy();
  });

  it("says when the link has no code", async () => {
    const { app } = await signUp();
    visit("/handler/team-invitation");
    await renderWithApp(app, <TeamInvitation />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "This invitation link is incomplete. Open the link from your e-mail again.",
    );
  });
});
