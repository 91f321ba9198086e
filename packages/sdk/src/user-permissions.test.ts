// The SDK's project-permission, OAuth-provider-record and project-definition calls, on a recording context: which
// request each of Stack's overloads makes, and how answers and expected errors come back.
import { KnownErrors } from "@gatehouse/contract/known-errors";
import { describe, expect, it } from "vitest";
import type { ObjectContext } from "./context.ts";
import { permissionDefinitionCalls } from "./permission-definitions.ts";
import type { RequestOptions } from "./transport.ts";
import { createOAuthProvider, oauthProviderCalls } from "./user-oauth-providers.ts";
import { permissionReads, permissionWrites } from "./user-permissions.ts";

const USER = "4f1c2d9e-0000-4000-8000-000000000001";

/** A context that records each request and answers from `answer` (a thrown value is thrown). */
function recording(answer: (path: string, options: RequestOptions) => unknown = () => ({ items: [] })) {
  const calls: string[] = [];
  let invalidated = 0;
  const ctx: ObjectContext = {
    async request<T>(path: string, options: RequestOptions = {}) {
      const query = options.query ? `?${new URLSearchParams(options.query as Record<string, string>)}` : "";
      calls.push(
        `${options.method ?? "GET"} ${path}${query}${options.body ? ` ${JSON.stringify(options.body)}` : ""}`,
      );
      const value = answer(path, options);
      if (value instanceof Error) throw value;
      return value as T;
    },
    callbackUrl: () => "",
    invalidate: () => {
      invalidated++;
    },
  };
  return { ctx, calls, invalidated: () => invalidated };
}

describe("permissions with and without a team", () => {
  it("reads team permissions with a team, project permissions without, recursively unless told", async () => {
    const { ctx, calls } = recording(() => ({ items: [{ id: "admin", user_id: USER }] }));
    const reads = permissionReads(ctx, "me");
    expect(await reads.listPermissions()).toEqual([{ id: "admin" }]);
    await reads.listPermissions({ recursive: false });
    await reads.listPermissions({ id: "team-1" }, { recursive: false });
    expect(await reads.hasPermission("admin")).toBe(true);
    expect(await reads.getPermission({ id: "team-1" }, "nope")).toBeNull();
    expect(calls).toEqual([
      "GET /project-permissions?user_id=me&recursive=true",
      "GET /project-permissions?user_id=me&recursive=false",
      "GET /team-permissions?team_id=team-1&user_id=me&recursive=false",
      "GET /project-permissions?user_id=me&recursive=true",
      "GET /team-permissions?team_id=team-1&user_id=me&recursive=true",
    ]);
  });

  it("grants and revokes project permissions without a team, team ones with", async () => {
    const { ctx, calls, invalidated } = recording(() => ({}));
    const writes = permissionWrites(ctx, USER);
    await writes.grantPermission("read:all");
    await writes.revokePermission("read:all");
    await writes.grantPermission({ id: "team-1" }, "$read_members");
    expect(calls).toEqual([
      `POST /project-permissions/${USER}/read%3Aall {}`,
      `DELETE /project-permissions/${USER}/read%3Aall {}`,
      `POST /team-permissions/team-1/${USER}/%24read_members {}`,
    ]);
    expect(invalidated()).toBe(3);
  });
});

describe("OAuth provider records", () => {
  const record = {
    id: "9b0c2d9e-0000-4000-8000-000000000003",
    user_id: USER,
    email: "a@example.com",
    provider_config_id: "github",
    type: "github",
    allow_sign_in: true,
    allow_connected_accounts: false,
    account_id: "42",
  };

  it("lists a user's records in Stack's shape, and changes and unlinks one", async () => {
    const { ctx, calls } = recording((_path, options) => (options.method ? {} : { items: [record] }));
    const [provider] = await oauthProviderCalls(ctx, "me").listOAuthProviders();
    expect(provider).toMatchObject({
      id: record.id,
      type: "github",
      userId: USER,
      accountId: "42",
      email: "a@example.com",
      allowSignIn: true,
      allowConnectedAccounts: false,
    });
    expect(await provider?.update({ allowConnectedAccounts: true })).toEqual({
      status: "ok",
      data: undefined,
    });
    await provider?.delete();
    expect(calls).toEqual([
      "GET /oauth-providers?user_id=me",
      `PATCH /oauth-providers/me/${record.id} {"allow_connected_accounts":true}`,
      `DELETE /oauth-providers/me/${record.id} {}`,
    ]);
  });

  it("returns OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN from create and update", async () => {
    const used = KnownErrors.OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN();
    const { ctx, calls } = recording(() => used);
    const options = {
      userId: USER,
      providerConfigId: "github",
      accountId: "42",
      allowSignIn: true,
      allowConnectedAccounts: true,
    };
    const created = await createOAuthProvider(ctx, options);
    expect(created.status === "error" && created.error.code).toBe(
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
    );
    expect(calls[0]).toBe(
      `POST /oauth-providers {"user_id":"${USER}","provider_config_id":"github","account_id":"42","allow_sign_in":true,"allow_connected_accounts":true}`,
    );
  });
});

describe("project permission definitions", () => {
  it("lists, creates, renames and deletes under the project path", async () => {
    const calls: string[] = [];
    const request = async <T>(path: string, options: RequestOptions = {}): Promise<T> => {
      calls.push(
        `${options.method ?? "GET"} ${path}${options.body ? ` ${JSON.stringify(options.body)}` : ""}`,
      );
      const definition = { id: "read", contained_permission_ids: [] };
      return (options.method ? definition : { items: [definition] }) as T;
    };
    const definitions = permissionDefinitionCalls(request, "/project-permission-definitions");
    expect(await definitions.list()).toEqual([{ id: "read", containedPermissionIds: [] }]);
    expect(await definitions.create({ id: "read", containedPermissionIds: [] })).toEqual({
      id: "read",
      containedPermissionIds: [],
    });
    await definitions.update("read", { id: "view" });
    await definitions.delete("view");
    expect(calls).toEqual([
      "GET /project-permission-definitions",
      'POST /project-permission-definitions {"id":"read","contained_permission_ids":[]}',
      'PATCH /project-permission-definitions/read {"id":"view"}',
      "DELETE /project-permission-definitions/view {}",
    ]);
  });
});
