// A user's permissions as Stack's SDK exposes them: with a team first argument, team permissions
// (`/team-permissions`); without, project permissions (`/project-permissions`). Shared by the signed-in user
// (`me`, read-only) and server users (who can also be granted and revoked permissions).
import { del, jsonBody, type ObjectContext } from "./context.ts";
import type { List, PermissionJson } from "./wire.ts";

export type TeamPermission = { id: string };

type Scope = { id: string };
type ListOptions = { recursive?: boolean };

/** Stack tells the overloads apart by an `id` on the first argument: a team has one, list options do not. */
const isScope = (value: unknown): value is Scope =>
  typeof value === "object" && value !== null && "id" in value && typeof value.id === "string";

export function permissionReads(ctx: ObjectContext, userId: string) {
  async function listPermissions(scope: Scope, options?: ListOptions): Promise<TeamPermission[]>;
  async function listPermissions(options?: ListOptions): Promise<TeamPermission[]>;
  async function listPermissions(
    scopeOrOptions?: Scope | ListOptions,
    maybeOptions?: ListOptions,
  ): Promise<TeamPermission[]> {
    const scope = isScope(scopeOrOptions) ? scopeOrOptions : undefined;
    const options = (scope ? maybeOptions : (scopeOrOptions as ListOptions | undefined)) ?? {};
    // Stack lists everything a user holds, contained permissions included, unless told otherwise.
    const recursive = options.recursive ?? true;
    const list = scope
      ? await ctx.request<List<PermissionJson>>("/team-permissions", {
          query: { team_id: scope.id, user_id: userId, recursive },
        })
      : await ctx.request<List<PermissionJson>>("/project-permissions", {
          query: { user_id: userId, recursive },
        });
    return list.items.map((p): TeamPermission => ({ id: p.id }));
  }

  async function getPermission(scope: Scope, permissionId: string): Promise<TeamPermission | null>;
  async function getPermission(permissionId: string): Promise<TeamPermission | null>;
  async function getPermission(scopeOrId: Scope | string, maybeId?: string): Promise<TeamPermission | null> {
    const [held, id] =
      typeof scopeOrId === "string"
        ? [await listPermissions(), scopeOrId]
        : [await listPermissions(scopeOrId), maybeId];
    return held.find((p) => p.id === id) ?? null;
  }

  async function hasPermission(scope: Scope, permissionId: string): Promise<boolean>;
  async function hasPermission(permissionId: string): Promise<boolean>;
  async function hasPermission(scopeOrId: Scope | string, maybeId?: string): Promise<boolean> {
    const found =
      typeof scopeOrId === "string"
        ? await getPermission(scopeOrId)
        : await getPermission(scopeOrId, maybeId ?? "");
    return found !== null;
  }

  return { listPermissions, getPermission, hasPermission };
}

/** Grants and revocations, for server users: a team grant with a team first argument, a project grant without. */
export function permissionWrites(ctx: ObjectContext, userId: string) {
  const pathOf = (scopeOrId: Scope | string, maybeId?: string) => {
    const user = encodeURIComponent(userId);
    return typeof scopeOrId === "string"
      ? `/project-permissions/${user}/${encodeURIComponent(scopeOrId)}`
      : `/team-permissions/${encodeURIComponent(scopeOrId.id)}/${user}/${encodeURIComponent(maybeId ?? "")}`;
  };

  async function grantPermission(scope: Scope, permissionId: string): Promise<void>;
  async function grantPermission(permissionId: string): Promise<void>;
  async function grantPermission(scopeOrId: Scope | string, maybeId?: string): Promise<void> {
    await ctx.request(pathOf(scopeOrId, maybeId), jsonBody({}));
    ctx.invalidate();
  }

  async function revokePermission(scope: Scope, permissionId: string): Promise<void>;
  async function revokePermission(permissionId: string): Promise<void>;
  async function revokePermission(scopeOrId: Scope | string, maybeId?: string): Promise<void> {
    await ctx.request(pathOf(scopeOrId, maybeId), del);
    ctx.invalidate();
  }

  return { grantPermission, revokePermission };
}
