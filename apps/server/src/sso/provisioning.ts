// Just-in-time provisioning: the user an identity provider's identity signs in, created on first sign-in and joined
// to the connection's team with the team's default member permissions plus those its groups map to.
//
// The account rules (why an identity provider may or may not reach an existing account):
// 1. An identity already seen on this connection (same `sub` / NameID) signs in its user. Nothing else is consulted.
// 2. A new identity whose e-mail domain this connection's team has verified (DNS) may sign in the project's account
//    of that address, and a new account gets the address verified and usable for sign-in: the team proved it owns
//    the domain, so its identity provider speaks for those addresses.
// 3. A new identity whose domain the team has not verified (unverified, or verified by another team) never reaches
//    an existing account of that address: SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION. A new account gets the address
//    unverified and not used for sign-in, so a team's identity provider cannot claim someone else's address.
import { isKnownError, KnownErrors } from "@gatehouse/contract";
import type { Db } from "../db/client.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { Project } from "../services/projects.ts";
import type { TeamService } from "../services/teams.ts";
import type { UserService } from "../services/users.ts";
import type { WebhookEvents } from "../webhooks/events.ts";
import type { AttributeMapping } from "./connections.ts";
import type { SsoConnectionRow, SsoRepo } from "./repo.ts";

/** Who the identity provider says the user is, before mapping. */
export type AssertedIdentity = { subject: string; attributes: Record<string, unknown> };

export type ProvisioningDeps = {
  repo: SsoRepo;
  /** Whether the team's SCIM client deactivated the user (scim/): such a user may not sign in to the team. */
  isDeactivated: (db: Db, teamId: string, userId: string) => Promise<boolean>;
  usersRepo: UsersRepo;
  users: UserService;
  teams: TeamService;
  events: WebhookEvents;
};

/** The first string of an attribute (SAML attributes are lists; OIDC claims are single values). */
function first(value: unknown): string | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === "string" && item.trim() !== "" ? item.trim() : undefined;
}

function all(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item): item is string => typeof item === "string");
}

export function createProvisioning(deps: ProvisioningDeps) {
  /** Grants what the identity's groups map to; a mapped permission the project no longer defines is skipped. */
  async function grantGroups(
    tx: Db,
    project: Project,
    teamId: string,
    userId: string,
    groups: string[],
    mapping: AttributeMapping,
  ) {
    const permissionIds = new Set(groups.flatMap((group) => mapping.group_permissions[group] ?? []));
    for (const permissionId of permissionIds) {
      try {
        await deps.teams.grant(tx, project.id, { teamId, userId, permissionId });
      } catch (error) {
        if (!isKnownError(error) || !["PERMISSION_NOT_FOUND", "WRONG_PERMISSION_SCOPE"].includes(error.code))
          throw error;
      }
    }
  }

  return {
    /** Inside the caller's transaction: the user's id, and whether it was created now. */
    async signIn(
      tx: Db,
      project: Project,
      connection: SsoConnectionRow,
      identity: AssertedIdentity,
    ): Promise<{ userId: string; isNewUser: boolean }> {
      const mapping = connection.attributeMapping as AttributeMapping;
      const email = first(identity.attributes[mapping.email])?.toLowerCase();
      const name = first(identity.attributes[mapping.name]) ?? null;
      const groups = all(identity.attributes[mapping.groups]);

      let userId: string;
      let isNewUser = false;
      const known = await deps.repo.findIdentity(tx, connection.id, identity.subject);
      if (known) {
        userId = known.userId;
      } else {
        const domain = email?.split("@")[1];
        const verified = domain ? await deps.repo.findVerifiedDomain(tx, project.id, domain) : undefined;
        const domainOwned = verified?.teamId === connection.teamId;
        const owner = email ? await deps.usersRepo.findAuthChannel(project.id, email, tx) : undefined;
        if (owner && !domainOwned) {
          throw KnownErrors.SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION({ email: owner.channel.value });
        }
        if (owner) {
          userId = owner.user.id;
        } else {
          userId = await deps.users.create(tx, {
            project,
            email: email ? { value: email, verified: domainOwned, usedForAuth: domainOwned } : undefined,
            displayName: name,
          });
          isNewUser = true;
          await deps.events.record(tx, project.id, {
            type: "user.provisioned",
            data: { user_id: userId, team_id: connection.teamId, connection_id: connection.id },
          });
        }
        await deps.repo.insertIdentity(tx, {
          connectionId: connection.id,
          subject: identity.subject,
          projectId: project.id,
          userId,
          email: email ?? null,
        });
      }
      // Deprovisioned through SCIM: the identity provider may still vouch for the identity (SSO and SCIM are often set up
      // apart), but the team's directory said no, and signing in would make them a member again.
      if (await deps.isDeactivated(tx, connection.teamId, userId))
        throw KnownErrors.SCIM_USER_DEACTIVATED({ team_id: connection.teamId });
      // A member removed by the team's admin comes back at the next sign-in: the identity provider is the source of
      // truth for who belongs (deprovisioning happens there, or through SCIM).
      await deps.teams.addMember(tx, project, connection.teamId, userId, "member");
      await grantGroups(tx, project, connection.teamId, userId, groups, mapping);
      return { userId, isNewUser };
    },
  };
}

export type Provisioning = ReturnType<typeof createProvisioning>;
