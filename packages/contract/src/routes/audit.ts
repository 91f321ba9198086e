// Audit log routes (issue 21): the project's append-only record of security-relevant actions, listed newest first
// with filters and cursor paging, and exported as NDJSON. Server and admin callers only.
import { z } from "zod";
import { defineRoute } from "../route.ts";

/** Every audit entry type; a filter names one of them. */
export const AUDIT_EVENT_TYPES = [
  "sign_in.succeeded",
  "sign_in.failed",
  "sign_up",
  "sign_out",
  "password.changed",
  "mfa.changed",
  "session.revoked",
  "impersonation.started",
  "user.banned",
  "user.unbanned",
  "api_key.created",
  "api_key.revoked",
  "permission.granted",
  "permission.revoked",
  "project.created",
  "project.updated",
  "project.deleted",
  "config.updated",
  "email_template.updated",
  "sso_connection.created",
  "sso_connection.updated",
  "sso_connection.deleted",
  /** A user's primary e-mail address changed (the user update, or a contact channel made or changed as primary). */
  "user.email_changed",
  /** The project's token-signing keys were rotated (new keys published; superseded ones retired). */
  "signing_key.rotated",
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** Who acted: a signed-in user, a project key, an operator's admin access token, nobody yet (a sign-in), or us. */
export const AUDIT_ACTOR_TYPES = [
  "user",
  "server_key",
  "admin_key",
  "admin_token",
  "anonymous",
  "system",
] as const;

export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    type: z.string(),
    actor: z.object({ type: z.string(), id: z.string().nullable() }),
    target: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    request_id: z.string().nullable(),
    created_at_millis: z.number(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "AuditEntry" });

export type AuditEntry = z.output<typeof auditEntrySchema>;

const millis = z.string().regex(/^\d{1,15}$/);

const auditFilterFields = {
  type: z.enum(AUDIT_EVENT_TYPES).optional(),
  actor_type: z.enum(AUDIT_ACTOR_TYPES).optional(),
  actor_id: z.string().min(1).max(256).optional(),
  target_id: z.string().min(1).max(256).optional(),
  /** [GO] Entries about a team: its members' permissions, its SSO connections, its API keys. */
  team_id: z.string().min(1).max(256).optional(),
  /** Inclusive lower and exclusive upper bound of the entries' time. */
  from_millis: millis.optional(),
  to_millis: millis.optional(),
};

export const auditFilterSchema = z.strictObject(auditFilterFields);
export type AuditFilterQuery = z.output<typeof auditFilterSchema>;

const TAG = "Audit log";

export const listAuditLogRoute = defineRoute({
  method: "GET",
  path: "/api/v1/audit-log",
  access: ["server", "admin"],
  summary:
    "The project's audit entries, newest first, filtered by type, actor, target and time; 200 at most a page",
  tag: TAG,
  query: z.strictObject({
    ...auditFilterFields,
    limit: z
      .string()
      .regex(/^\d{1,3}$/)
      .optional(),
    /** `next_cursor` of the previous page. */
    cursor: z
      .string()
      .regex(/^\d{1,15}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      .optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      items: z.array(auditEntrySchema),
      is_paginated: z.literal(true),
      pagination: z.object({ next_cursor: z.string().nullable() }),
    }),
  },
});

export const exportAuditLogRoute = defineRoute({
  method: "GET",
  path: "/api/v1/audit-log/export",
  access: ["server", "admin"],
  summary: "The project's audit entries matching the filters as NDJSON (one AuditEntry a line), newest first",
  tag: TAG,
  query: auditFilterSchema,
  response: { status: 200, kind: "text", description: "application/x-ndjson, one AuditEntry per line" },
});

export const auditRoutes = [listAuditLogRoute, exportAuditLogRoute] as const;
