// The signed-in operator and the projects their teams own: read once, shared by every screen, and the admin app of
// the project a screen shows (it acts with the operator's session: no admin key is ever in the browser).
import { type CurrentInternalUser, type OwnedProject, useUser } from "@gatehouse/react";
import { useQuery } from "./data.ts";

/** The signed-in operator; a visitor who is not signed in goes to sign-in (and comes back afterwards). */
export function useOperator(): CurrentInternalUser {
  // The dashboard's app is the internal project's, whose user has these members; the hooks of @gatehouse/react's
  // user type are not among CurrentInternalUser's, hence the step through unknown.
  return useUser({ or: "redirect" }) as unknown as CurrentInternalUser;
}

export const OWNED_PROJECTS = "owned-projects";

export function useOwnedProjects(): OwnedProject[] {
  const operator = useOperator();
  return useQuery(`${OWNED_PROJECTS}:${operator.id}`, () => operator.listOwnedProjects());
}

export function useOwnedProject(projectId: string): OwnedProject | null {
  return useOwnedProjects().find((project) => project.id === projectId) ?? null;
}

/** The key prefix of a project's reads, for `invalidate` after a write. */
export const projectKey = (project: { id: string }, ...parts: string[]) => [project.id, ...parts].join(":");

/** What every project screen is given. */
export type ProjectScreenProps = { project: OwnedProject };
