// @vitest-environment happy-dom
// The e-mail screen against the real server: SMTP settings are validated and saved, a test e-mail to a closed port
// reports the SMTP error in place, a template draft is previewed (and an unknown variable refused), the outbox lists
// e-mails and opens one.
import { createServer } from "node:net";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { EmailsPage } from "./index.tsx";

const live = dashboardLiveSuite();

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const render = () => renderScreen(live().app, <EmailsPage project={live().project} />);

describe("the e-mail screen", () => {
  it("validates and saves standard SMTP settings", async () => {
    await render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("radio", { name: "Your own SMTP server" }));
    await user.click(screen.getByRole("button", { name: "Save e-mail settings" }));
    expect(await screen.findByText("SMTP host is required.")).toBeTruthy();
    expect(screen.getByText("Sender e-mail address is required.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("SMTP host"));

    await user.type(screen.getByLabelText("SMTP host"), "smtp.example.com");
    await user.clear(screen.getByLabelText("Port"));
    await user.type(screen.getByLabelText("Port"), "25x");
    await user.type(screen.getByLabelText("Username"), "mailer");
    await user.type(screen.getByLabelText("Password"), "secret");
    await user.type(screen.getByLabelText("Sender name"), "Shop");
    await user.type(screen.getByLabelText("Sender e-mail address"), "noreply@example.com");
    await user.click(screen.getByRole("button", { name: "Save e-mail settings" }));
    expect(await screen.findByText("The port is a whole number from 1 to 65535.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("Port"));
    expect((await live().project.app.getProject()).config).toMatchObject({ emailConfig: { type: "shared" } });

    await user.clear(screen.getByLabelText("Port"));
    await user.type(screen.getByLabelText("Port"), "2525");
    await user.click(screen.getByRole("button", { name: "Save e-mail settings" }));
    expect(await screen.findByText("E-mail settings saved.")).toBeTruthy();
    expect((await live().project.app.getProject()).config).toMatchObject({
      emailConfig: {
        type: "standard",
        host: "smtp.example.com",
        port: 2525,
        username: "mailer",
        password: "secret",
        senderName: "Shop",
        senderEmail: "noreply@example.com",
      },
    });
  });

  it("shows the SMTP error of a test e-mail to an unreachable server in place", async () => {
    await render();
    const user = userEvent.setup();
    // The saved standard settings of the previous test are shown; point them at a closed port.
    const host = await screen.findByLabelText("SMTP host");
    await user.clear(host);
    await user.type(host, "127.0.0.1");
    await user.clear(screen.getByLabelText("Port"));
    await user.type(screen.getByLabelText("Port"), String(await closedPort()));

    await user.click(screen.getByRole("button", { name: "Send test e-mail" }));
    expect(await screen.findByText("Enter the address to send the test e-mail to.")).toBeTruthy();
    await user.type(screen.getByLabelText("Test recipient"), "someone@example.com");
    await user.click(screen.getByRole("button", { name: "Send test e-mail" }));
    const failure = await screen.findByText(/^The test e-mail failed: ./, {}, { timeout: 10_000 });
    expect(failure.getAttribute("role")).toBe("alert");

    // Back to the shared server for the other tests.
    await user.click(screen.getByRole("radio", { name: /^Shared/ }));
    await user.click(screen.getByRole("button", { name: "Save e-mail settings" }));
    expect(await screen.findByText("E-mail settings saved.")).toBeTruthy();
  });

  it("previews a template draft, refuses an unknown variable, saves and resets", async () => {
    await render();
    const user = userEvent.setup();
    await user.click(screen.getByRole("tab", { name: "Templates" }));
    await user.click(await screen.findByRole("button", { name: /Sign-in invitation/ }));
    const form = screen.getByRole("form", { name: "Sign-in invitation template" });
    expect(within(form).getByText("{{ signInInvitationLink }}")).toBeTruthy();

    const subject = within(form).getByLabelText("Subject");
    await user.clear(subject);
    await user.click(subject);
    await user.paste("Come in to {{ projectDisplayName }}, {{ nope }}");
    expect(await screen.findByText("Unknown template variable: nope")).toBeTruthy();

    await user.click(within(form).getByRole("button", { name: "Save template" }));
    expect(await within(form).findByText("Unknown template variable: nope")).toBeTruthy();

    await user.clear(subject);
    await user.click(subject);
    await user.paste("Come in to {{ projectDisplayName }}");
    await waitFor(() =>
      expect(screen.getByTestId("preview-subject").textContent).toBe("Come in to Test project"),
    );
    expect(screen.getByTitle("HTML preview").getAttribute("sandbox")).toBe("");

    await user.click(within(form).getByRole("button", { name: "Save template" }));
    await waitFor(async () => {
      const saved = (await live().project.app.listEmailTemplates()).find(
        (t) => t.type === "sign_in_invitation",
      );
      expect(saved).toMatchObject({ subject: "Come in to {{ projectDisplayName }}", isDefault: false });
    });

    await user.click(await screen.findByRole("button", { name: "Reset to default" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("button", { name: "Reset" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Reset to default" }));
    await user.click(screen.getByRole("button", { name: "Reset" }));
    await waitFor(() => expect(screen.getByRole("form", { name: /Sign-in invitation/ })).toBeTruthy());
    await waitFor(async () => {
      const saved = (await live().project.app.listEmailTemplates()).find(
        (t) => t.type === "sign_in_invitation",
      );
      expect(saved?.isDefault).toBe(true);
    });
    await waitFor(() =>
      expect((screen.getByLabelText("Subject") as HTMLInputElement).value).toBe(
        "You have been invited to sign in to {{ projectDisplayName }}",
      ),
    );
  });

  it("lists the outbox, filters by recipient and opens an e-mail", async () => {
    await live().project.app.sendSignInInvitationEmail("guest@example.com", "http://localhost:3000/welcome");
    await live().project.app.sendSignInInvitationEmail("other@example.com", "http://localhost:3000/welcome");
    await render();
    const user = userEvent.setup();
    await user.click(screen.getByRole("tab", { name: "Outbox" }));
    const table = await screen.findByRole("table");
    expect(within(table).getByText("guest@example.com")).toBeTruthy();
    expect(within(table).getByText("other@example.com")).toBeTruthy();

    await user.type(screen.getByLabelText("Recipient"), "guest@example.com");
    await user.click(screen.getByRole("button", { name: "Filter" }));
    await waitFor(() => expect(screen.queryByText("other@example.com")).toBeNull());
    const row = screen.getByText("guest@example.com").closest("tr") as HTMLElement;
    expect(within(row).getByText("Sign-in invitation")).toBeTruthy();

    await user.click(within(row).getByRole("button", { name: /invited to sign in to Test project/ }));
    const content = screen.getByRole("region", { name: /E-mail: You have been invited/ });
    expect(
      within(content)
        .getByTitle(/^HTML of/)
        .getAttribute("sandbox"),
    ).toBe("");
    expect(within(content).getByText(/http:\/\/localhost:3000\/welcome/)).toBeTruthy();

    await user.clear(screen.getByLabelText("Recipient"));
    await user.type(screen.getByLabelText("Recipient"), "nobody@example.com");
    await user.click(screen.getByRole("button", { name: "Filter" }));
    expect(await screen.findByText("No e-mails to nobody@example.com.")).toBeTruthy();
  });
});
