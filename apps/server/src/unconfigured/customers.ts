// Who may act on a payments customer, and whether the customer exists: Stack's checks before any payments answer
// (lib/payments ensureClientCanAccessCustomer and ensureCustomerExists), so callers meet the same errors first.
import { KnownErrors } from "@gatehouse/contract";
import type { Deps } from "../deps.ts";
import type { Caller } from "../http/caller.ts";
import { TextError } from "../text-error.ts";

export type CustomerType = "user" | "team" | "custom";
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A client caller may act only for itself or for a team it administers (`team_admin`, held directly or through a
 * contained permission); custom customers are server-side only. Server and admin callers act for anyone.
 */
export async function requireCustomerAccess(
  deps: Deps,
  caller: Caller,
  customer: { customer_type: CustomerType; customer_id: string },
  forbiddenMessage: string,
): Promise<void> {
  if (caller.accessType !== "client") return;
  const user = caller.user;
  if (!user) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
  if (customer.customer_type === "custom") throw new TextError(403, forbiddenMessage);
  if (customer.customer_type === "user") {
    if (customer.customer_id !== user.id) throw new TextError(403, forbiddenMessage);
    return;
  }
  await requireTeamAdmin(deps, caller.project.id, customer.customer_id, user.id);
}

/**
 * Stack's `ensureUserTeamPermissionExists(…, "team_admin", recursive)`: the team exists, the user is a member,
 * and holds `team_admin` directly or through a permission that contains it.
 */
export async function requireTeamAdmin(
  deps: Deps,
  projectId: string,
  teamId: string,
  userId: string,
): Promise<void> {
  const team = UUID.test(teamId) ? await deps.teamsRepo.findTeam(projectId, teamId) : undefined;
  if (!team) throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
  if (!(await deps.teamsRepo.membership(teamId, userId)))
    throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: teamId, user_id: userId });
  const filter = { teamId, userId, permissionId: "team_admin" };
  if ((await deps.permissions.listGrants(projectId, filter, true)).length === 0)
    throw KnownErrors.TEAM_PERMISSION_REQUIRED({
      team_id: teamId,
      user_id: userId,
      permission_id: "team_admin",
    });
}

/** Users and teams must exist in the project (`USER_NOT_FOUND`, `TEAM_NOT_FOUND`); custom customers always do. */
export async function requireCustomerExists(
  deps: Deps,
  projectId: string,
  customer: { customer_type: CustomerType; customer_id: string },
): Promise<void> {
  const id = customer.customer_id;
  if (customer.customer_type === "user") {
    if (!UUID.test(id) || !(await deps.usersRepo.find(projectId, id))) throw KnownErrors.USER_NOT_FOUND();
  } else if (customer.customer_type === "team") {
    if (!UUID.test(id) || !(await deps.teamsRepo.findTeam(projectId, id)))
      throw KnownErrors.TEAM_NOT_FOUND({ team_id: id });
  }
}
