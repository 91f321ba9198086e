// @vitest-environment happy-dom
// The language picker against a real server: choosing a language stores it with the user (client_metadata.locale,
// beside the app's own keys) and turns the pages to it at once; "automatic" removes it; the provider's `lang` prop
// still wins over the stored choice.
import { act, cleanup, render, screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { Suspense } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { StackProvider } from "../../provider.tsx";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { visit } from "../../test-support/render.tsx";
import { AccountSettings } from "./index.tsx";
import { renderSettings, section, serverUser, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive();
});
afterAll(() => live.close());
afterEach(cleanup);

describe("language", () => {
  it("stores the chosen language with the user and shows the pages in it", async () => {
    await signUp(live);
    const user = await live.app.getUser({ or: "throw" });
    await user.update({ clientMetadata: { theme: "green" } });
    await renderSettings(live);

    const picker = (await section("Language")).getByLabelText("Language of these pages and of your e-mails");
    await userEvent.selectOptions(picker, "ja");
    expect(await screen.findByRole("heading", { level: 1, name: "アカウント設定" })).toBeTruthy();
    expect(document.querySelector(".gh-root")?.getAttribute("lang")).toBe("ja");
    expect((await serverUser(live)).client_metadata).toEqual({ theme: "green", locale: "ja" });

    await userEvent.selectOptions(screen.getByLabelText("このページとメールの言語"), "");
    expect(await screen.findByRole("heading", { level: 1, name: "Account settings" })).toBeTruthy();
    expect((await serverUser(live)).client_metadata).toEqual({ theme: "green" });
    // The sections' reads are done before the test ends (not cut off by the server closing).
    expect(await (await section("Active sessions")).findByText("This session")).toBeTruthy();
  });

  it("lets the provider's lang prop win over the stored language", async () => {
    await signUp(live);
    const user = await live.app.getUser({ or: "throw" });
    await user.update({ clientMetadata: { locale: "ja" } });
    visit("/handler/account-settings");
    await act(async () => {
      render(
        <StackProvider app={live.app} lang="ar">
          <Suspense fallback={<p>loading</p>}>
            <AccountSettings />
          </Suspense>
        </StackProvider>,
      );
    });
    expect(await screen.findByRole("heading", { level: 1, name: "إعدادات الحساب" })).toBeTruthy();
    expect(document.querySelector(".gh-root")?.getAttribute("dir")).toBe("rtl");
    // The page shows one section at a time: the sessions section, as its link in the navigation opens it.
    window.location.hash = "#account-sessions";
    expect(await screen.findByText("هذه الجلسة")).toBeTruthy();
  });
});
