// @vitest-environment happy-dom
// The projects screen against the real server: the operator's projects are listed, and creating one opens it.
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { ProjectsPage } from "./projects.tsx";

const live = dashboardLiveSuite();

describe("the projects screen", () => {
  it("lists the operator's projects and opens a new one after creating it", async () => {
    window.history.replaceState(null, "", "/dashboard/projects");
    await renderScreen(live().app, <ProjectsPage />);
    expect(screen.getByRole("link", { name: /Test project/ })).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Create project" }));
    expect(await screen.findByText("Give the project a name.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("Project name"));

    await user.type(screen.getByLabelText("Project name"), "Shop");
    await user.type(screen.getByLabelText("Description (optional)"), "The web shop");
    await user.click(screen.getByRole("button", { name: "Create project" }));
    await waitFor(() => expect(window.location.pathname).toMatch(/^\/dashboard\/projects\/[0-9a-f-]{36}$/));
    const id = window.location.pathname.split("/").pop();
    const owned = await live().operator.listOwnedProjects();
    expect(owned.find((p) => p.id === id)?.displayName).toBe("Shop");
    await waitFor(() => expect(screen.getByRole("link", { name: /Shop/ })).toBeTruthy());
  });
});
