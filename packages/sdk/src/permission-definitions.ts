// Permission definitions as the admin app manages them, for either scope: team (`/team-permission-definitions`) and
// project (`/project-permission-definitions`) definitions share their shape and calls.
import { defined, del, jsonBody, patch } from "./context.ts";
import type { RequestOptions } from "./transport.ts";

export type PermissionDefinition = { id: string; description?: string; containedPermissionIds: string[] };
export type PermissionDefinitionCreateOptions = {
  id: string;
  description?: string;
  containedPermissionIds: string[];
};
export type PermissionDefinitionUpdateOptions = {
  id?: string;
  description?: string;
  containedPermissionIds?: string[];
};

type DefinitionJson = { id: string; description?: string; contained_permission_ids: string[] };
type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

const fromJson = (d: DefinitionJson): PermissionDefinition => ({
  id: d.id,
  ...(d.description === undefined ? {} : { description: d.description }),
  containedPermissionIds: d.contained_permission_ids,
});

const bodyOf = (data: PermissionDefinitionUpdateOptions) =>
  defined({
    id: data.id,
    description: data.description,
    contained_permission_ids: data.containedPermissionIds,
  });

/** The calls on the definitions under `basePath`, made with the admin app's `request`. */
export function permissionDefinitionCalls(request: Request, basePath: string) {
  const pathOf = (id: string) => `${basePath}/${encodeURIComponent(id)}`;
  return {
    async list(): Promise<PermissionDefinition[]> {
      return (await request<{ items: DefinitionJson[] }>(basePath)).items.map(fromJson);
    },
    /** A page of definitions in id order, `query` matching ids and descriptions; `nextCursor` continues it. */
    async listPage(options: {
      limit: number;
      cursor?: string;
      query?: string;
    }): Promise<{ items: PermissionDefinition[]; nextCursor: string | null }> {
      const query = defined({ limit: options.limit, cursor: options.cursor, query: options.query });
      const page = await request<{ items: DefinitionJson[]; pagination?: { next_cursor: string | null } }>(
        basePath,
        { query },
      );
      return { items: page.items.map(fromJson), nextCursor: page.pagination?.next_cursor ?? null };
    },
    async create(data: PermissionDefinitionCreateOptions): Promise<PermissionDefinition> {
      return fromJson(await request<DefinitionJson>(basePath, jsonBody(bodyOf(data))));
    },
    async update(permissionId: string, data: PermissionDefinitionUpdateOptions): Promise<void> {
      await request(pathOf(permissionId), patch(bodyOf(data)));
    },
    async delete(permissionId: string): Promise<void> {
      await request(pathOf(permissionId), del);
    },
  };
}
