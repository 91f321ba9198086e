// Custom access-token claims (issue 21 item 4): what a project's claim template adds to each access token minted for
// one of its users: metadata fields, team memberships with their permissions, project permissions. Read at mint time,
// so a template change shows in every token issued after it (refreshes included).
import {
  type AccessTokenClaimsTemplate,
  type CustomAccessTokenClaims,
  MAX_CUSTOM_CLAIMS_BYTES,
} from "@gatehouse/contract";
import type { Db } from "../db/client.ts";
import type { ProjectRow, ProjectsRepo } from "../db/projects-repo.ts";
import type { TokenSubject } from "../db/users-repo.ts";
import type { PermissionService } from "../services/permissions.ts";
import type { ProjectPermissionService } from "../services/project-permissions.ts";

const METADATA_SOURCES = {
  client_metadata: "clientMetadata",
  client_read_only_metadata: "clientReadOnlyMetadata",
  server_metadata: "serverMetadata",
} as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function createTokenClaims(deps: {
  db: Db;
  projectsRepo: ProjectsRepo;
  teamsRepo: { teamIdsOf(executor: Db, userId: string): Promise<string[]> };
  permissions: PermissionService;
  projectPermissions: ProjectPermissionService;
}) {
  async function build(
    template: AccessTokenClaimsTemplate,
    user: TokenSubject,
  ): Promise<CustomAccessTokenClaims> {
    const claims: CustomAccessTokenClaims = {};
    for (const field of template.metadata) {
      const source: unknown = user[METADATA_SOURCES[field.source]];
      // A missing field is left out rather than set to null: "absent" and "set to null" stay distinguishable.
      if (isObject(source) && Object.hasOwn(source, field.key)) claims[field.claim] = source[field.key];
    }
    if (template.teams !== "off") {
      const teamIds = (await deps.teamsRepo.teamIdsOf(deps.db, user.id)).sort();
      if (template.teams === "ids") {
        claims.teams = teamIds.map((id) => ({ id }));
      } else {
        // Contained permissions included, so a back end checks a role by membership in the list alone.
        const grants = await deps.permissions.listGrants(user.projectId, { userId: user.id }, true);
        claims.teams = teamIds.map((id) => ({
          id,
          permissions: grants.filter((g) => g.teamId === id).map((g) => g.permissionId),
        }));
      }
    }
    if (template.project_permissions) {
      const held = await deps.projectPermissions.list(user.projectId, { userId: user.id }, true);
      claims.permissions = held.map((p) => p.id);
    }
    return claims;
  }

  return {
    /**
     * The claims to add to a token for `user`; none when the project has no template. Above the size limit nothing
     * is added but `custom_claims_omitted`, so a back end knows to ask the API instead of trusting a partial list.
     */
    async forUser(user: TokenSubject, known?: ProjectRow): Promise<CustomAccessTokenClaims> {
      // The request's project, read with its session moments ago, when the caller passes it; else read here.
      const project = known?.id === user.projectId ? known : await deps.projectsRepo.find(user.projectId);
      const template = project?.config.access_token_claims;
      if (!template) return {};
      const claims = await build(template, user);
      if (Buffer.byteLength(JSON.stringify(claims)) > MAX_CUSTOM_CLAIMS_BYTES)
        return { custom_claims_omitted: true };
      return claims;
    },
  };
}

export type TokenClaims = ReturnType<typeof createTokenClaims>;
