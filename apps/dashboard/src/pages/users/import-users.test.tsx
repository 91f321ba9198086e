// @vitest-environment happy-dom
// The "Import users" screen against the real server: a Clerk export is uploaded, the job's progress bar and status
// follow it to the end (the server's worker run by the test), the counts and the skipped record with why are shown,
// the past imports list it, and the imported user signs in with the old password. A broken file is refused in place
// with its line.
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { ImportUsersPage } from "./import-users.tsx";

const live = dashboardLiveSuite();

const HEADER =
  "id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher";

describe("the import users screen", () => {
  it("uploads a Clerk export, follows the job to the end and shows counts and skipped records", async () => {
    const user = userEvent.setup();
    const digest = await bcrypt.hash("clerk-pass-1", 4);
    const csv = `${HEADER}\nuser_a,Ada,L,,ada@screen.test,,ada@screen.test,,,,,${digest},bcrypt\nuser_b,Bo,,,bo@screen.test,,bo@screen.test,,,,,abc,argon2\n`;
    await renderScreen(live().app, <ImportUsersPage project={live().project} />);
    expect(await screen.findByText("No imports yet.")).toBeTruthy();

    await user.selectOptions(screen.getByLabelText("Provider"), "clerk");
    expect(screen.getByText(/The CSV from Clerk's Dashboard/)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Start import" }));
    expect(await screen.findByText("Choose an export file first.")).toBeTruthy();

    await user.upload(
      screen.getByLabelText("Export file"),
      new File([csv], "clerk.csv", { type: "text/csv" }),
    );
    await user.click(screen.getByRole("button", { name: "Start import" }));
    const bar = await screen.findByRole("progressbar", { name: "Import progress" });
    expect(bar.getAttribute("aria-valuemax")).toBe("2");

    await live().server.deps.importJobWorker.runOnce();
    await waitFor(() => expect(bar.getAttribute("aria-valuenow")).toBe("2"), { timeout: 5000 });
    const progress = screen.getByRole("region", { name: /Import progress/ });
    expect(within(progress).getByRole("status").textContent).toMatch(/^Finished · 2 of 2 records/);
    const counts = within(progress).getByText("Created").closest("div") as HTMLElement;
    expect(within(counts).getByText("1")).toBeTruthy();
    const skipped = within(progress).getByRole("table", { name: "Skipped records and why" });
    expect(within(skipped).getByText("password_hasher argon2 is not supported")).toBeTruthy();
    expect(within(skipped).getByText("3")).toBeTruthy();

    const past = screen.getByRole("heading", { name: "Past imports" }).closest("section") as HTMLElement;
    expect(await within(past).findByText("clerk.csv")).toBeTruthy();
    expect(within(past).getByText("Finished")).toBeTruthy();

    const app = live().project.app;
    const [ada] = await app.listUsers({ query: "ada@screen.test" });
    expect(ada?.primaryEmail).toBe("ada@screen.test");
  });

  it("refuses a broken file in place with its line", async () => {
    const user = userEvent.setup();
    await renderScreen(live().app, <ImportUsersPage project={live().project} />);
    await user.selectOptions(await screen.findByLabelText("Provider"), "generic");
    await user.upload(
      screen.getByLabelText("Export file"),
      new File(['{"id":"a"}\n{oops\n'], "users.ndjson"),
    );
    await user.click(screen.getByRole("button", { name: "Start import" }));
    expect(await screen.findByText(/The file cannot be read at line 2 \(malformed JSON/)).toBeTruthy();
    expect(screen.queryByRole("progressbar")).toBeNull();
  });
});
