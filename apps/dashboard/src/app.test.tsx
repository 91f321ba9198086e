// @vitest-environment happy-dom
// The dashboard's shell against the real server: every screen (the first one, "Create a project", included) sits
// inside the bricks' styled root, whose style sheet is on the page; and a project's side navigation folds behind the
// "Sections" button, which says whether it is open and what it opens.
import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DashboardApp } from "./app.tsx";
import { ProjectFrame } from "./layout.tsx";
import { dashboardLiveSuite, renderScreen } from "./testing.tsx";

const live = dashboardLiveSuite();

describe("the dashboard's shell", () => {
  it("puts the projects screen's form inside the bricks' styled root", async () => {
    window.history.replaceState(null, "", "/dashboard/projects");
    await renderScreen(live().app, <DashboardApp />);
    await screen.findByRole("heading", { name: "Create a project" });
    for (const element of [
      screen.getByLabelText("Project name"),
      screen.getByRole("button", { name: "Create project" }),
      screen.getByRole("heading", { level: 1, name: "Projects" }),
      screen.getByRole("link", { name: "Gatehouse" }),
    ]) {
      expect(element.closest(".gh-root")).not.toBeNull();
    }
    expect(document.head.querySelector("style[data-href='gatehouse-styles']")?.textContent).toContain(
      ".gh-root .gh-input",
    );
  });

  it("shows a path that names nothing inside the styled root too", async () => {
    window.history.replaceState(null, "", "/dashboard/nowhere");
    await renderScreen(live().app, <DashboardApp />);
    const heading = await screen.findByRole("heading", { name: "Page not found" });
    expect(heading.closest(".gh-root")).not.toBeNull();
  });

  it("folds the side navigation behind the Sections button", async () => {
    const project = live().project;
    await renderScreen(
      live().app,
      <ProjectFrame projectId={project.id} section="/users">
        <p>content</p>
      </ProjectFrame>,
    );
    const toggle = screen.getByRole("button", { name: "Sections" });
    const nav = screen.getByRole("navigation", { name: "Project sections" });
    expect(toggle.getAttribute("aria-controls")).toBe(nav.id);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(nav.hasAttribute("data-open")).toBe(false);
    await userEvent.setup().click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(nav.hasAttribute("data-open")).toBe(true);
    expect(screen.getByRole("link", { name: "Users" }).getAttribute("aria-current")).toBe("page");
  });
});
