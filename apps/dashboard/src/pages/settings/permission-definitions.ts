// The project's team permission definitions (system ones included), read once and shared, and the id rule of
// WIRE.md §4.12 that the forms check before sending.
import type { OwnedProject } from "@gatehouse/react";
import { invalidate, useQuery } from "../../data.ts";
import type { DashboardKey } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { settingsKey } from "./project-settings.ts";

export type PermissionDefinition = {
  id: string;
  description?: string;
  containedPermissionIds: string[];
};

export const definitionsKey = (project: OwnedProject) => projectKey(project, "permission-definitions");

export function usePermissionDefinitions(project: OwnedProject): PermissionDefinition[] {
  return useQuery(definitionsKey(project), () => project.app.listTeamPermissionDefinitions());
}

/** After a change of definitions: a rename or delete also rewrites the project's default lists (WIRE.md §6). */
export function definitionsChanged(project: OwnedProject) {
  invalidate(definitionsKey(project), settingsKey(project));
}

export const isSystemPermission = (id: string) => id.startsWith("$");

/** Why `id` cannot name a new or renamed definition (a text key), or null. `others` are the ids already taken. */
export function permissionIdProblem(id: string, others: readonly string[]): DashboardKey | null {
  if (id === "") return "perm.err.empty";
  if (id.length > 256) return "perm.err.long";
  if (!/^[a-z0-9_:]+$/.test(id)) return "perm.err.chars";
  if (others.includes(id)) return "perm.err.exists";
  return null;
}
