// SCIM wire shapes (RFC 7643/7644): the User and Group representations, list responses with startIndex/count paging,
// the error body, and the discovery documents (ServiceProviderConfig, ResourceTypes, Schemas).
import { type KnownError, KnownErrors } from "@gatehouse/contract";
import { attribute } from "./filter.ts";
import type { ScimGroupRow, ScimUserRow } from "./repo.ts";

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";
export const SCIM_CONTENT_TYPE = "application/scim+json; charset=utf-8";

const DEFAULT_COUNT = 100;
const MAX_COUNT = 500;

type Json = Record<string, unknown>;
/** The attributes a resource's own columns hold; the rest of a client's body is kept as given. */
const OWN_USER_KEYS = new Set(["schemas", "id", "meta", "username", "externalid", "active", "groups"]);

export function userResource(
  baseUrl: string,
  row: ScimUserRow,
  groups: { id: string; name: string }[],
): Json {
  const kept = Object.fromEntries(
    Object.entries(row.attributes as Json).filter(([key]) => !OWN_USER_KEYS.has(key.toLowerCase())),
  );
  return {
    schemas: [USER_SCHEMA],
    ...kept,
    id: row.userId,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    userName: row.userName,
    active: row.active,
    groups: groups.map((g) => ({ value: g.id, display: g.name, $ref: `${baseUrl}/Groups/${g.id}` })),
    meta: {
      resourceType: "User",
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${baseUrl}/Users/${row.userId}`,
    },
  };
}

export function groupResource(
  baseUrl: string,
  row: ScimGroupRow,
  members: { id: string; userName: string }[],
): Json {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    members: members.map((m) => ({ value: m.id, display: m.userName, $ref: `${baseUrl}/Users/${m.id}` })),
    meta: {
      resourceType: "Group",
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${baseUrl}/Groups/${row.id}`,
    },
  };
}

/** A positive integer query parameter, or the fallback when absent; anything else is a known error. */
function integerParam(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  if (!/^-?\d{1,9}$/.test(value))
    throw KnownErrors.SCIM_INVALID_VALUE({ reason: `${name} must be an integer.` });
  return Number(value);
}

/**
 * One page of the filtered resources. startIndex is 1-based and below 1 means 1; count below 0 means 0 and is capped,
 * as RFC 7644 §3.4.2.4 says (a count of 0 answers only totalResults).
 */
export function listResponse(resources: Json[], query: { startIndex?: string; count?: string }): Json {
  const startIndex = Math.max(1, integerParam(query.startIndex, 1, "startIndex"));
  const count = Math.min(MAX_COUNT, Math.max(0, integerParam(query.count, DEFAULT_COUNT, "count")));
  const page = resources.slice(startIndex - 1, startIndex - 1 + count);
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    startIndex,
    itemsPerPage: page.length,
    Resources: page,
  };
}

/** `attributes` and `excludedAttributes` (RFC 7644 §3.9) on top-level attributes; id and schemas always stay. */
export function projectAttributes(
  resource: Json,
  query: { attributes?: string; excludedAttributes?: string },
) {
  const names = (list: string | undefined) =>
    new Set((list ?? "").split(",").map((name) => name.trim().toLowerCase().split(".")[0] ?? ""));
  if (query.attributes) {
    const wanted = names(query.attributes);
    return Object.fromEntries(
      Object.entries(resource).filter(([k]) => ["id", "schemas"].includes(k) || wanted.has(k.toLowerCase())),
    );
  }
  if (query.excludedAttributes) {
    const unwanted = names(query.excludedAttributes);
    return Object.fromEntries(
      Object.entries(resource).filter(
        ([k]) => ["id", "schemas"].includes(k) || !unwanted.has(k.toLowerCase()),
      ),
    );
  }
  return resource;
}

const SCIM_TYPES: Record<string, string> = {
  SCIM_UNIQUENESS: "uniqueness",
  SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION: "uniqueness",
  USER_EMAIL_ALREADY_EXISTS: "uniqueness",
  SCIM_INVALID_FILTER: "invalidFilter",
  SCIM_INVALID_PATH: "invalidPath",
  SCIM_INVALID_VALUE: "invalidValue",
  BODY_PARSING_ERROR: "invalidSyntax",
};

/** RFC 7644 §3.12: the status as a string, a scimType for the 400 and 409 kinds, the catalogue's message. */
export function errorBody(error: KnownError): Json {
  const scimType = SCIM_TYPES[error.code];
  return {
    schemas: [ERROR_SCHEMA],
    status: String(error.status),
    ...(scimType ? { scimType } : {}),
    detail: error.message,
  };
}

/** A string attribute of a body by name (ignoring case), or undefined. */
export function stringAttribute(body: Json, name: string): string | undefined {
  const value = attribute(body, name);
  return typeof value === "string" ? value : undefined;
}

export function serviceProviderConfig(): Json {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "A team's SCIM token, created in the team's SSO settings",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig" },
  };
}

export function resourceTypes(baseUrl: string): Json[] {
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "User",
      name: "User",
      endpoint: "/Users",
      schema: USER_SCHEMA,
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      schema: GROUP_SCHEMA,
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

const attr = (name: string, type: string, extra: Json = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

export function schemas(baseUrl: string): Json[] {
  const multi = (name: string, sub: Json[]) =>
    attr(name, "complex", { multiValued: true, subAttributes: sub });
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      id: USER_SCHEMA,
      name: "User",
      attributes: [
        attr("userName", "string", { required: true, uniqueness: "server" }),
        attr("externalId", "string", { caseExact: true }),
        attr("displayName", "string"),
        attr("name", "complex", {
          subAttributes: [
            attr("formatted", "string"),
            attr("givenName", "string"),
            attr("familyName", "string"),
          ],
        }),
        multi("emails", [attr("value", "string"), attr("type", "string"), attr("primary", "boolean")]),
        attr("active", "boolean"),
        multi("groups", [attr("value", "string"), attr("display", "string")]),
      ],
      meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      id: GROUP_SCHEMA,
      name: "Group",
      attributes: [
        attr("displayName", "string", { required: true, uniqueness: "server" }),
        attr("externalId", "string", { caseExact: true }),
        multi("members", [attr("value", "string"), attr("display", "string")]),
      ],
      meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}
