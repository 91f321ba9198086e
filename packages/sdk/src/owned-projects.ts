// What a user of the internal project (the dashboard's) can do beyond any user: the projects their teams own, each
// with an admin app that acts through this user's session (WIRE.md §8). Loaded on use through flows.ts: only a
// dashboard calls it, so other apps' first load does not carry it.
import type { ClientAppOptions, CurrentInternalUser, OwnedProject } from "./client-app.ts";
import { jsonBody } from "./context.ts";
import { StackAssertionError } from "./errors.ts";
import type { Session } from "./session.ts";
import type { Transport } from "./transport.ts";
import type { CurrentUser } from "./users.ts";
import type { ProjectJson } from "./wire.ts";

export type OwnedProjectDeps = {
  transport: Transport;
  session: Session;
  baseUrl: string;
  connection: Pick<ClientAppOptions, "fetch" | "extraRequestHeaders">;
  adminAppClass: ClientAppOptions["adminAppClass"];
};

export function ownedProjectCalls(deps: OwnedProjectDeps): Omit<CurrentInternalUser, keyof CurrentUser> {
  const { transport, session } = deps;
  const ownedProject = async (
    json: ProjectJson & { description?: string | null; created_at_millis?: number },
  ) => {
    const AdminApp = deps.adminAppClass;
    if (!AdminApp) {
      throw new StackAssertionError(
        "Owned projects need the admin app: create the internal project's app with `adminAppClass: StackAdminApp`.",
      );
    }
    const app = new AdminApp({
      projectId: json.id,
      projectJson: json,
      baseUrl: deps.baseUrl,
      ...deps.connection,
      projectOwnerSession: { getTokens: async () => ({ accessToken: await session.getAccessToken() }) },
    });
    const owned: OwnedProject = {
      id: json.id,
      displayName: json.display_name,
      description: json.description ?? null,
      createdAt: new Date(json.created_at_millis ?? 0),
      app,
    };
    return owned;
  };
  return {
    listOwnedProjects: async () => {
      const list = await transport.request<{ items: ProjectJson[] }>("/internal/projects", { session });
      return Promise.all(list.items.map(ownedProject));
    },
    createProject: async (options: { displayName: string; teamId: string; description?: string }) => {
      const json = await transport.request<ProjectJson>("/internal/projects", {
        ...jsonBody({
          display_name: options.displayName,
          owner_team_id: options.teamId,
          description: options.description,
        }),
        session,
      });
      return ownedProject(json);
    },
  };
}
