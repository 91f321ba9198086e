// User and team API keys, as Stack's SDK models them: `createApiKey` / `listApiKeys` on users and teams, the key
// object with `update`, `revoke`, `isValid` and `whyInvalid`, and the server's check behind `getUser({ apiKey })`.
import type { ObjectContext } from "./context.ts";
import { defined, jsonBody, patch } from "./context.ts";
import { knownErrorIs } from "./errors.ts";
import type { List } from "./wire.ts";

export type ApiKeyType = "user" | "team";

/** A key as the server answers it: `value` is the full key only in the create answer. */
export type ApiKeyJson = {
  id: string;
  description: string;
  expires_at_millis?: number;
  manually_revoked_at_millis?: number;
  created_at_millis: number;
  is_public: boolean;
  value: string | { last_four: string };
} & ({ type: "user"; user_id: string } | { type: "team"; team_id: string });

export type ApiKeyCreationOptions = {
  description: string;
  expiresAt: Date | null;
  /** A public key is not treated as a secret: secret scanners leave it alone. */
  isPublic?: boolean;
};

export type ApiKeyUpdateOptions = { description?: string; expiresAt?: Date | null; revoked?: boolean };

type ApiKeyBase<IsFirstView extends boolean> = {
  id: string;
  description: string;
  expiresAt?: Date;
  manuallyRevokedAt: Date | null;
  createdAt: Date;
  isPublic: boolean;
  value: IsFirstView extends true ? string : { lastFour: string };
  update(options: ApiKeyUpdateOptions): Promise<void>;
  revoke(): Promise<void>;
  isValid(): boolean;
  whyInvalid(): "manually-revoked" | "expired" | null;
};

export type UserApiKey<IsFirstView extends boolean = false> = ApiKeyBase<IsFirstView> & {
  type: "user";
  userId: string;
};
export type TeamApiKey<IsFirstView extends boolean = false> = ApiKeyBase<IsFirstView> & {
  type: "team";
  teamId: string;
};
export type UserApiKeyFirstView = UserApiKey<true>;
export type TeamApiKeyFirstView = TeamApiKey<true>;
export type ApiKey = UserApiKey | TeamApiKey;

const pathOf = (type: ApiKeyType) => `/${type}-api-keys`;

/** Stack's conversion: `expiresAt` null means never (sent as null), undefined leaves it as it is. */
const expiresJson = (expiresAt: Date | null | undefined) =>
  expiresAt == null ? expiresAt : expiresAt.getTime();

/** The key object: its data, and calls on `ctx` (the session it was read with, or the server's keys). */
export function apiKeyOf(
  ctx: ObjectContext,
  json: ApiKeyJson,
): ApiKey | UserApiKeyFirstView | TeamApiKeyFirstView {
  const owner = json.type === "user" ? { user_id: json.user_id } : { team_id: json.team_id };
  const key = {
    id: json.id,
    description: json.description,
    expiresAt: json.expires_at_millis === undefined ? undefined : new Date(json.expires_at_millis),
    manuallyRevokedAt:
      json.manually_revoked_at_millis === undefined ? null : new Date(json.manually_revoked_at_millis),
    createdAt: new Date(json.created_at_millis),
    isPublic: json.is_public,
    value: typeof json.value === "string" ? json.value : { lastFour: json.value.last_four },
    ...(json.type === "user"
      ? { type: "user" as const, userId: json.user_id }
      : { type: "team" as const, teamId: json.team_id }),
    async update(options: ApiKeyUpdateOptions) {
      await ctx.request(`${pathOf(json.type)}/${json.id}`, {
        ...patch(
          defined({
            description: options.description,
            expires_at_millis: expiresJson(options.expiresAt),
            // Revocation cannot be undone: `revoked: false` asks for nothing.
            revoked: options.revoked ? true : undefined,
          }),
        ),
        query: owner,
      });
      ctx.invalidate();
    },
    revoke() {
      return this.update({ revoked: true });
    },
    isValid() {
      return this.whyInvalid() === null;
    },
    whyInvalid() {
      if (this.manuallyRevokedAt) return "manually-revoked" as const;
      if (this.expiresAt && this.expiresAt.getTime() < Date.now()) return "expired" as const;
      return null;
    },
  };
  return key as ApiKey | UserApiKeyFirstView | TeamApiKeyFirstView;
}

/** `listApiKeys` and `createApiKey` of a user (`me` for the signed-in one) or a team. */
export function apiKeyCalls<T extends ApiKeyType>(ctx: ObjectContext, type: T, ownerId: string) {
  type Key = T extends "user" ? UserApiKey : TeamApiKey;
  type FirstView = T extends "user" ? UserApiKeyFirstView : TeamApiKeyFirstView;
  const owner = type === "user" ? { user_id: ownerId } : { team_id: ownerId };
  return {
    async listApiKeys(): Promise<Key[]> {
      const list = await ctx.request<List<ApiKeyJson>>(pathOf(type), { query: owner });
      return list.items.map((item) => apiKeyOf(ctx, item) as Key);
    },
    async createApiKey(options: ApiKeyCreationOptions): Promise<FirstView> {
      const json = await ctx.request<ApiKeyJson>(
        pathOf(type),
        jsonBody({
          ...owner,
          description: options.description,
          expires_at_millis: expiresJson(options.expiresAt),
          ...defined({ is_public: options.isPublic }),
        }),
      );
      ctx.invalidate();
      return apiKeyOf(ctx, json) as FirstView;
    },
  };
}

/** The server's check of a presented key: its record, or null when it is unknown, revoked, expired or of the other type. */
export async function checkApiKey(
  ctx: ObjectContext,
  type: ApiKeyType,
  apiKey: string,
): Promise<ApiKeyJson | null> {
  try {
    return await ctx.request<ApiKeyJson>(`${pathOf(type)}/check`, jsonBody({ api_key: apiKey }));
  } catch (error) {
    if (knownErrorIs(error, "API_KEY_NOT_VALID")) return null;
    throw error;
  }
}
