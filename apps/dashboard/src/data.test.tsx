// @vitest-environment happy-dom
// The dashboard's shared reads come back fresh when the operator returns to the tab: what is a while old is read
// again in place (the old value stays on screen meanwhile), what was just read is not.
import { act, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readAgainOnReturn, useQuery } from "./data.ts";

function Members({ load }: { load: () => Promise<string> }) {
  return <p>{useQuery("project-1/members", load)}</p>;
}

const becomeVisible = () => act(() => void document.dispatchEvent(new Event("visibilitychange")));

afterEach(() => vi.useRealTimers());

describe("reading again when the operator comes back", () => {
  it("reads a while-old value again when the tab becomes visible, and a fresh one not", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    let members = ["Ada"];
    const load = vi.fn(async () => members.join(", "));
    const stop = readAgainOnReturn(30_000);
    render(
      <Suspense fallback="loading">
        <Members load={load} />
      </Suspense>,
    );
    expect(await screen.findByText("Ada")).toBeTruthy();

    members = ["Ada", "Grace"];
    await becomeVisible();
    expect(load).toHaveBeenCalledTimes(1);

    vi.setSystemTime(Date.now() + 31_000);
    await becomeVisible();
    expect(await screen.findByText("Ada, Grace")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);

    stop();
    vi.setSystemTime(Date.now() + 31_000);
    await becomeVisible();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
