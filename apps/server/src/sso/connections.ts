// A team's SSO connections: create, read, change, remove, and their wire form with the values an administrator
// pastes into the identity provider (our callback / ACS URL and entity id). Client secrets are sealed at rest and
// never shown again.
import {
  type CreateSsoConnectionBody,
  KnownErrors,
  type SsoConnection,
  ssoAttributeMappingSchema,
} from "@gatehouse/contract";
import type { z } from "zod";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { Db } from "../db/client.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { WebhookEvents } from "../webhooks/events.ts";
import type { SsoConnectionRow, SsoRepo } from "./repo.ts";

export type AttributeMapping = z.output<typeof ssoAttributeMappingSchema>;

/** What `settings` holds for each protocol. */
export type OidcSettings = { issuer_url: string; client_id: string; sealed_client_secret: string };
export type SamlSettings = {
  idp_entity_id: string;
  idp_sso_url: string;
  idp_certificates: string[];
  /**
   * Our key pair for encrypted assertions, made per connection when it is created (or first changed): the certificate
   * is published in our SP metadata, the private key sealed at rest. Connections made before it get theirs when
   * their SP metadata is read or a sign-in starts (`withEncryptionKey`).
   */
  sp_encryption_certificate?: string;
  sealed_sp_encryption_key?: string;
};

export type SsoConnectionsDeps = {
  repo: SsoRepo;
  audit: AuditLog;
  teamsRepo: TeamsRepo;
  events: WebhookEvents;
  clock: Clock;
  baseUrl: string;
  /** Seals OIDC client secrets. */
  box: SecretBox;
  /** Turns SAML input (metadata or values) into settings; sso/saml.ts. */
  samlSettings?: (
    input: Extract<CreateSsoConnectionBody, { protocol: "saml" }>["saml"],
  ) => Promise<SamlSettings>;
  /** A fresh key pair (PEM certificate and private key) for a SAML connection's encrypted assertions. */
  samlEncryptionKey?: () => Promise<{ certificate: string; privateKey: string }>;
};

export type SsoUrls = { oidcCallback: string; acs: string; spMetadata: string; spEntityId: string };

export function ssoUrls(baseUrl: string, connectionId: string): SsoUrls {
  const saml = `${baseUrl}/api/v1/auth/sso/saml/${connectionId}`;
  return {
    oidcCallback: `${baseUrl}/api/v1/auth/sso/oidc/${connectionId}/callback`,
    acs: `${saml}/acs`,
    spMetadata: `${saml}/metadata`,
    // The metadata URL doubles as our entity id: unique per connection, so one connection's assertions can never
    // pass the audience check of another's.
    spEntityId: `${saml}/metadata`,
  };
}

export function createSsoConnections(deps: SsoConnectionsDeps) {
  const auditConnection = (
    db: Db,
    projectId: string,
    type: "sso_connection.created" | "sso_connection.updated" | "sso_connection.deleted",
    wire: SsoConnection,
    fields?: string[],
  ) =>
    deps.audit.record(db, projectId, {
      type,
      target: { type: "sso_connection", id: wire.id },
      details: { team_id: wire.team_id, protocol: wire.protocol, ...(fields ? { fields } : {}) },
    });

  const toWire = (row: SsoConnectionRow): SsoConnection => {
    const urls = ssoUrls(deps.baseUrl, row.id);
    const oidc = row.protocol === "oidc" ? (row.settings as OidcSettings) : null;
    const saml = row.protocol === "saml" ? (row.settings as SamlSettings) : null;
    return {
      id: row.id,
      team_id: row.teamId,
      protocol: row.protocol as "oidc" | "saml",
      display_name: row.displayName,
      enabled: row.enabled,
      attribute_mapping: ssoAttributeMappingSchema.parse(row.attributeMapping),
      oidc: oidc && {
        issuer_url: oidc.issuer_url,
        client_id: oidc.client_id,
        redirect_uri: urls.oidcCallback,
      },
      saml: saml && {
        idp_entity_id: saml.idp_entity_id,
        idp_sso_url: saml.idp_sso_url,
        idp_certificates: saml.idp_certificates,
        sp_encryption_certificate: saml.sp_encryption_certificate ?? null,
        sp_entity_id: urls.spEntityId,
        acs_url: urls.acs,
        sp_metadata_url: urls.spMetadata,
      },
      created_at_millis: row.createdAt.getTime(),
    };
  };

  async function assertTeam(db: Db, projectId: string, teamId: string): Promise<void> {
    if (!(await deps.teamsRepo.findTeam(projectId, teamId, db)))
      throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
  }

  async function samlSettings(
    input: Extract<CreateSsoConnectionBody, { protocol: "saml" }>["saml"],
    previous?: SamlSettings,
  ): Promise<SamlSettings> {
    if (!deps.samlSettings)
      throw KnownErrors.SCHEMA_ERROR({ message: "SAML connections are not available." });
    const settings = await deps.samlSettings(input);
    // Our encryption key outlives the IdP's settings: the IdP keeps encrypting to the certificate it was given.
    if (previous?.sp_encryption_certificate && previous.sealed_sp_encryption_key) {
      return {
        ...settings,
        sp_encryption_certificate: previous.sp_encryption_certificate,
        sealed_sp_encryption_key: previous.sealed_sp_encryption_key,
      };
    }
    const key = await newEncryptionKey();
    return key ? { ...settings, ...key } : settings;
  }

  async function newEncryptionKey() {
    if (!deps.samlEncryptionKey) return undefined;
    const key = await deps.samlEncryptionKey();
    return {
      sp_encryption_certificate: key.certificate,
      sealed_sp_encryption_key: deps.box.seal(key.privateKey),
    };
  }

  async function owned(db: Db, projectId: string, teamId: string, id: string): Promise<SsoConnectionRow> {
    const row = await deps.repo.findConnection(db, projectId, id);
    if (!row || row.teamId !== teamId) throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: id });
    return row;
  }

  return {
    toWire,

    /**
     * The connection, a SAML one made before encrypted assertions given its key first: otherwise it would get one
     * only when its SAML settings next change, and its SP metadata would offer the IdP no certificate to encrypt to.
     */
    async withEncryptionKey(db: Db, row: SsoConnectionRow): Promise<SsoConnectionRow> {
      if (row.protocol !== "saml" || (row.settings as SamlSettings).sp_encryption_certificate) return row;
      const key = await newEncryptionKey();
      if (!key) return row;
      const updated =
        (await deps.repo.addSamlKeyIfMissing(db, row.id, key)) ??
        (await deps.repo.findConnectionAnywhere(db, row.id));
      return updated ?? row;
    },

    async list(db: Db, projectId: string, teamId: string): Promise<SsoConnection[]> {
      await assertTeam(db, projectId, teamId);
      return (await deps.repo.listConnections(db, projectId, teamId)).map(toWire);
    },

    async get(db: Db, projectId: string, teamId: string, id: string): Promise<SsoConnection> {
      return toWire(await owned(db, projectId, teamId, id));
    },

    async create(
      db: Db,
      projectId: string,
      teamId: string,
      body: CreateSsoConnectionBody,
    ): Promise<SsoConnection> {
      await assertTeam(db, projectId, teamId);
      const settings =
        body.protocol === "oidc"
          ? ({
              issuer_url: body.oidc.issuer_url,
              client_id: body.oidc.client_id,
              sealed_client_secret: deps.box.seal(body.oidc.client_secret),
            } satisfies OidcSettings)
          : await samlSettings(body.saml);
      const row = await deps.repo.insertConnection(db, {
        id: crypto.randomUUID(),
        projectId,
        teamId,
        protocol: body.protocol,
        displayName: body.display_name,
        enabled: body.enabled,
        settings,
        attributeMapping: ssoAttributeMappingSchema.parse(body.attribute_mapping ?? {}),
        createdAt: deps.clock.now(),
      });
      const wire = toWire(row);
      await deps.events.record(db, projectId, { type: "sso.connection.created", data: wire });
      await auditConnection(db, projectId, "sso_connection.created", wire);
      return wire;
    },

    async update(
      db: Db,
      projectId: string,
      teamId: string,
      id: string,
      body: {
        display_name?: string;
        enabled?: boolean;
        attribute_mapping?: AttributeMapping;
        oidc?: Partial<{ issuer_url: string; client_id: string; client_secret: string }>;
        saml?: Extract<CreateSsoConnectionBody, { protocol: "saml" }>["saml"];
      },
    ): Promise<SsoConnection> {
      const row = await owned(db, projectId, teamId, id);
      if ((body.oidc && row.protocol !== "oidc") || (body.saml && row.protocol !== "saml")) {
        throw KnownErrors.SCHEMA_ERROR({ message: `This is a ${row.protocol} connection.` });
      }
      let settings = row.settings;
      if (body.oidc) {
        const { client_secret, ...rest } = body.oidc;
        settings = {
          ...(row.settings as OidcSettings),
          ...rest,
          ...(client_secret ? { sealed_client_secret: deps.box.seal(client_secret) } : {}),
        };
      }
      if (body.saml) settings = await samlSettings(body.saml, row.settings as SamlSettings);
      const updated = await deps.repo.updateConnection(db, id, {
        displayName: body.display_name,
        enabled: body.enabled,
        attributeMapping: body.attribute_mapping,
        settings,
      });
      if (!updated) throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: id });
      const wire = toWire(updated);
      await deps.events.record(db, projectId, { type: "sso.connection.updated", data: wire });
      await auditConnection(db, projectId, "sso_connection.updated", wire, Object.keys(body));
      return wire;
    },

    async delete(db: Db, projectId: string, teamId: string, id: string): Promise<void> {
      const wire = toWire(await owned(db, projectId, teamId, id));
      await deps.repo.deleteConnection(db, id);
      await deps.events.record(db, projectId, { type: "sso.connection.deleted", data: wire });
      await auditConnection(db, projectId, "sso_connection.deleted", wire);
    },
  };
}

export type SsoConnections = ReturnType<typeof createSsoConnections>;
