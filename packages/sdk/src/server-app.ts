// StackServerApp: a back end's app, holding the secret server key. Everything the client app does, plus every user
// and team of the project (WIRE.md §4.8, §4.10), server-side contact channels and permissions, and sessions made
// for a user.

import { checkApiKey } from "./api-keys.ts";
import { resolveSecretServerKey } from "./app-options.ts";
import { type ClientAppOptions, type GetUserOptions, StackClientApp } from "./client-app.ts";
import { defined, jsonBody, type ObjectContext } from "./context.ts";
import { serverAppPaymentCalls } from "./customer-apps.ts";
import { type DataVaultStore, dataVaultStore } from "./data-vault.ts";
import { type SendEmailOptions, sendEmail } from "./emails.ts";
import { knownErrorIs, type Result } from "./errors.ts";
import { outsideServiceServerCalls } from "./outside-services.ts";
import { type ServerUser, type ServerUserCreateOptions, serverUser, serverUserJson } from "./server-users.ts";
import type { Session } from "./session.ts";
import { type TeamSso, teamSsoCalls } from "./team-sso.ts";
import { type ServerTeam, type ServerTeamUpdateOptions, serverTeam, teamUpdateJson } from "./teams.ts";
import type { Credentials } from "./transport.ts";
import {
  createOAuthProvider,
  type OAuthProvider,
  type OAuthProviderCreateOptions,
} from "./user-oauth-providers.ts";
import type { CurrentUser } from "./users.ts";

const pick = <T extends object, K extends keyof T>(object: T, keys: K[]) =>
  Object.fromEntries(keys.map((key) => [key, object[key]])) as Pick<T, K>;

import type { List, TeamJson, UserJson } from "./wire.ts";

export type ServerAppOptions = ClientAppOptions & { secretServerKey?: string };

export type ListUsersOptions = {
  cursor?: string;
  limit?: number;
  orderBy?: "signedUpAt" | "lastActiveAt";
  desc?: boolean;
  query?: string;
  teamId?: string;
  includeAnonymous?: boolean;
  /** Also list users restricted by an administrator (banned), whom the listing hides by default (WIRE.md §4.8). */
  includeRestricted?: boolean;
};

/**
 * Stack's CurrentServerUser: the signed-in user with every server field and the server's calls beside its own. Where
 * both have a member, the type is the current user's (the server's versions differ only in resolving to nothing
 * where the user's may resolve to an error), so the server app's user can stand wherever the client app's does.
 */
export type CurrentServerUser = CurrentUser & Omit<ServerUser, keyof CurrentUser>;

/** A page of users; `nextCursor` continues the listing. */
export type UserPage = ServerUser[] & { nextCursor: string | null };

export class StackServerApp extends StackClientApp {
  constructor(options: ServerAppOptions, credentials?: Partial<Credentials>) {
    super(options, {
      accessType: "server",
      // An admin app authenticates with its admin key or owner's token; the server key is optional there.
      secretServerKey:
        credentials?.accessType === "admin"
          ? options.secretServerKey
          : resolveSecretServerKey(options.secretServerKey),
      ...credentials,
    });
  }

  /** Server objects use the app's keys and no user session. */
  protected serverContext(): ObjectContext {
    return {
      request: (path, options = {}) => this.transport.request(path, options),
      callbackUrl: (name) => this.urls[name],
      invalidate: () => {},
    };
  }

  /** Stack's `sendEmail`: an HTML body or a template to users, skipping those who turned its category off. */
  sendEmail(options: SendEmailOptions): Promise<void> {
    return sendEmail((path, opts) => this.transport.request(path, opts), options);
  }

  // Stack's payments calls with the server key (customer-apps.ts): items a back end may change, and granting.
  private readonly serverPayments = serverAppPaymentCalls(this.serverContext());
  override readonly getItem = this.serverPayments.getItem;
  override readonly listProducts = this.serverPayments.listProducts;
  readonly grantProduct = this.serverPayments.grantProduct;

  /** A data vault store (declared in the project's config); values are encrypted here with the caller's secret. */
  async getDataVaultStore(id: string): Promise<DataVaultStore> {
    return dataVaultStore(this.serverContext(), id);
  }

  /** [GO] A team's SSO connections, domains and SCIM tokens (team-sso.ts). */
  teamSso(teamId: string): TeamSso {
    return teamSsoCalls((path, opts) => this.transport.request(path, opts), teamId);
  }

  /** Every member's team permissions in one request (direct grants, or with `recursive` the implied ones too). */
  async listTeamMemberPermissions(
    teamId: string,
    options: { recursive?: boolean } = {},
  ): Promise<{ userId: string; permissionId: string }[]> {
    const list = await this.transport.request<List<{ id: string; user_id: string }>>("/team-permissions", {
      query: { team_id: teamId, recursive: options.recursive ?? false },
    });
    return list.items.map((p) => ({ userId: p.user_id, permissionId: p.id }));
  }

  // Stack's e-mail delivery and capacity methods (outside-services.ts).
  private readonly capacity = outsideServiceServerCalls((path, opts) => this.transport.request(path, opts));
  readonly getEmailDeliveryStats = this.capacity.getEmailDeliveryStats;
  readonly activateEmailCapacityBoost = this.capacity.activateEmailCapacityBoost;

  /** The signed-in user in the server view: every field, and the server's calls beside the user's own. */
  protected override currentUserOf(session: Session, json: UserJson): CurrentServerUser {
    const own = super.currentUserOf(session, json);
    // The user's own calls (on its session) win where both exist: signing out, updating and deleting oneself.
    return Object.assign(
      own,
      serverUser(this.serverContext(), json),
      pick(own, ["signOut", "update", "delete", "selectedTeam"]),
    );
  }

  async createUser(options: ServerUserCreateOptions): Promise<ServerUser> {
    const json = await this.transport.request<UserJson>("/users", jsonBody(serverUserJson(options)));
    return serverUser(this.serverContext(), json);
  }

  /** The signed-in user (as on the client app), or with an id any user of the project. */
  override async getUser(
    options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" },
  ): Promise<CurrentServerUser>;
  override async getUser(options?: GetUserOptions): Promise<CurrentServerUser | null>;
  override async getUser(userId: string): Promise<ServerUser | null>;
  /** The user holding a user API key; null when the key is unknown, revoked or expired. */
  override async getUser(options: {
    apiKey: string;
    or?: "return-null" | "anonymous";
  }): Promise<ServerUser | null>;
  override async getUser(
    arg?: string | GetUserOptions | { apiKey: string },
  ): Promise<CurrentServerUser | ServerUser | null> {
    if (typeof arg === "object" && "apiKey" in arg) {
      const key = await checkApiKey(this.serverContext(), "user", arg.apiKey);
      return key?.type === "user" ? this.getUser(key.user_id) : null;
    }
    // The client app builds the signed-in user with currentUserOf, which this app overrides.
    if (typeof arg !== "string") return super.getUser(arg) as Promise<CurrentServerUser | null>;
    try {
      return serverUser(this.serverContext(), await this.transport.request<UserJson>(`/users/${arg}`));
    } catch (error) {
      if (knownErrorIs(error, "USER_NOT_FOUND")) return null;
      throw error;
    }
  }

  /** Stack's older name for `getUser()` on a server app: the signed-in user of the app's token store. */
  getServerUser(options: GetUserOptions = {}): Promise<CurrentServerUser | null> {
    return this.getUser(options);
  }

  async listUsers(options: ListUsersOptions = {}): Promise<UserPage> {
    const query = defined({
      cursor: options.cursor,
      limit: options.limit,
      order_by: options.orderBy && (options.orderBy === "lastActiveAt" ? "last_active_at" : "signed_up_at"),
      desc: options.desc,
      query: options.query,
      team_id: options.teamId,
      include_anonymous: options.includeAnonymous,
      include_restricted: options.includeRestricted,
    });
    const page = await this.transport.request<List<UserJson>>("/users", { query });
    const users = page.items.map((u) => serverUser(this.serverContext(), u));
    return Object.assign(users, { nextCursor: page.pagination?.next_cursor ?? null });
  }

  async createTeam(options: {
    displayName: string;
    profileImageUrl?: string | null;
    creatorUserId?: string;
  }) {
    const json = await this.transport.request<TeamJson>(
      "/teams",
      jsonBody(
        defined({
          display_name: options.displayName,
          profile_image_url: options.profileImageUrl,
          creator_user_id: options.creatorUserId,
        }),
      ),
    );
    return serverTeam(this.serverContext(), json);
  }

  async getTeam(teamId: string): Promise<ServerTeam | null>;
  /** The team holding a team API key; null when the key is unknown, revoked or expired. */
  async getTeam(options: { apiKey: string }): Promise<ServerTeam | null>;
  async getTeam(arg: string | { apiKey: string }): Promise<ServerTeam | null> {
    if (typeof arg !== "string") {
      const key = await checkApiKey(this.serverContext(), "team", arg.apiKey);
      return key?.type === "team" ? this.getTeam(key.team_id) : null;
    }
    const teamId = arg;
    try {
      return serverTeam(this.serverContext(), await this.transport.request<TeamJson>(`/teams/${teamId}`));
    } catch (error) {
      if (knownErrorIs(error, "TEAM_NOT_FOUND")) return null;
      throw error;
    }
  }

  async listTeams(options: { userId?: string } = {}): Promise<ServerTeam[]> {
    const list = await this.transport.request<List<TeamJson>>("/teams", {
      query: defined({ user_id: options.userId }),
    });
    return list.items.map((t) => serverTeam(this.serverContext(), t));
  }

  /** Links a provider account to a user; OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN is returned. */
  createOAuthProvider(options: OAuthProviderCreateOptions): Promise<Result<OAuthProvider>> {
    return createOAuthProvider(this.serverContext(), options);
  }

  async updateTeam(teamId: string, update: ServerTeamUpdateOptions): Promise<void> {
    await this.transport.request(`/teams/${teamId}`, { method: "PATCH", body: teamUpdateJson(update) });
  }
}
