// The SSO tables: a team's connections, the identities they signed in, and the SAML assertion ids already used.
import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { perDatabase } from "../db/prepared.ts";
import { ssoAssertionIds, ssoConnections, ssoDomains, ssoIdentities } from "../db/schema.ts";

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;
export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;
export type SsoDomainRow = typeof ssoDomains.$inferSelect;

export function createSsoRepo() {
  // SSO sign-in by e-mail and provisioning ask it (sso/flow.ts, provisioning.ts).
  const verifiedDomain = perDatabase((db) =>
    db
      .select()
      .from(ssoDomains)
      .where(
        and(
          eq(ssoDomains.projectId, sql.placeholder("projectId")),
          eq(ssoDomains.domain, sql.placeholder("domain")),
          isNotNull(ssoDomains.verifiedAt),
        ),
      )
      .prepare("sso_verified_domain"),
  );
  return {
    async listConnections(db: Db, projectId: string, teamId: string): Promise<SsoConnectionRow[]> {
      return db
        .select()
        .from(ssoConnections)
        .where(and(eq(ssoConnections.projectId, projectId), eq(ssoConnections.teamId, teamId)))
        .orderBy(asc(ssoConnections.createdAt), asc(ssoConnections.id));
    },

    /** A connection of the project, whatever its team (sign-in by connection id). */
    async findConnection(db: Db, projectId: string, id: string): Promise<SsoConnectionRow | undefined> {
      const [row] = await db
        .select()
        .from(ssoConnections)
        .where(and(eq(ssoConnections.projectId, projectId), eq(ssoConnections.id, id)));
      return row;
    },

    /** A connection by id alone: the identity provider's return names only the connection. */
    async findConnectionAnywhere(db: Db, id: string): Promise<SsoConnectionRow | undefined> {
      const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.id, id));
      return row;
    },

    async insertConnection(db: Db, row: typeof ssoConnections.$inferInsert): Promise<SsoConnectionRow> {
      const [inserted] = await db.insert(ssoConnections).values(row).returning();
      if (!inserted) throw new Error("insert returned no row");
      return inserted;
    },

    async updateConnection(
      db: Db,
      id: string,
      changes: Partial<Pick<SsoConnectionRow, "displayName" | "enabled" | "settings" | "attributeMapping">>,
    ): Promise<SsoConnectionRow | undefined> {
      const [row] = await db.update(ssoConnections).set(changes).where(eq(ssoConnections.id, id)).returning();
      return row;
    },

    /**
     * Adds `fields` to a connection's settings only while it has no SAML encryption certificate yet: of callers racing
     * to give an older connection its key, exactly one wins (the others read the winner's).
     */
    async addSamlKeyIfMissing(
      db: Db,
      id: string,
      fields: { sp_encryption_certificate: string; sealed_sp_encryption_key: string },
    ): Promise<SsoConnectionRow | undefined> {
      const [row] = await db
        .update(ssoConnections)
        .set({ settings: sql`${ssoConnections.settings} || ${JSON.stringify(fields)}::jsonb` })
        .where(
          and(
            eq(ssoConnections.id, id),
            sql`${ssoConnections.settings}->>'sp_encryption_certificate' is null`,
          ),
        )
        .returning();
      return row;
    },

    async deleteConnection(db: Db, id: string): Promise<void> {
      await db.delete(ssoConnections).where(eq(ssoConnections.id, id));
    },

    async findIdentity(db: Db, connectionId: string, subject: string): Promise<SsoIdentityRow | undefined> {
      const [row] = await db
        .select()
        .from(ssoIdentities)
        .where(and(eq(ssoIdentities.connectionId, connectionId), eq(ssoIdentities.subject, subject)));
      return row;
    },

    async insertIdentity(db: Db, row: typeof ssoIdentities.$inferInsert): Promise<void> {
      await db.insert(ssoIdentities).values(row);
    },

    /**
     * Records an assertion id as used; false when it already was (a replay). The primary key decides, so two
     * processes receiving the same assertion at once cannot both accept it.
     */
    async recordAssertionId(
      db: Db,
      connectionId: string,
      assertionId: string,
      expiresAt: Date,
    ): Promise<boolean> {
      try {
        const inserted = await db
          .insert(ssoAssertionIds)
          .values({ connectionId, assertionId, expiresAt })
          .onConflictDoNothing()
          .returning({ id: ssoAssertionIds.assertionId });
        return inserted.length === 1;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** The verified claim of an e-mail domain in a project, if a team has proven it. */
    async findVerifiedDomain(db: Db, projectId: string, domain: string): Promise<SsoDomainRow | undefined> {
      const [row] = await verifiedDomain(db).execute({ projectId, domain: domain.toLowerCase() });
      return row;
    },

    async listDomains(db: Db, projectId: string, teamId: string): Promise<SsoDomainRow[]> {
      return db
        .select()
        .from(ssoDomains)
        .where(and(eq(ssoDomains.projectId, projectId), eq(ssoDomains.teamId, teamId)))
        .orderBy(asc(ssoDomains.createdAt), asc(ssoDomains.id));
    },

    async findDomain(
      db: Db,
      projectId: string,
      teamId: string,
      id: string,
    ): Promise<SsoDomainRow | undefined> {
      const [row] = await db
        .select()
        .from(ssoDomains)
        .where(
          and(eq(ssoDomains.projectId, projectId), eq(ssoDomains.teamId, teamId), eq(ssoDomains.id, id)),
        );
      return row;
    },

    async insertDomain(db: Db, row: typeof ssoDomains.$inferInsert): Promise<SsoDomainRow> {
      const [inserted] = await db.insert(ssoDomains).values(row).returning();
      if (!inserted) throw new Error("insert returned no row");
      return inserted;
    },

    async updateDomain(
      db: Db,
      id: string,
      changes: Partial<Pick<SsoDomainRow, "verifiedAt" | "connectionId" | "enforceSso">>,
    ): Promise<SsoDomainRow | undefined> {
      const [row] = await db.update(ssoDomains).set(changes).where(eq(ssoDomains.id, id)).returning();
      return row;
    },

    async deleteDomain(db: Db, id: string): Promise<void> {
      await db.delete(ssoDomains).where(eq(ssoDomains.id, id));
    },

    /** Forgets assertion ids whose assertions have expired: they can no longer be replayed anyway. */
    async sweepAssertionIds(db: Db, now: Date): Promise<void> {
      await db.delete(ssoAssertionIds).where(lt(ssoAssertionIds.expiresAt, now));
    },
  };
}

export type SsoRepo = ReturnType<typeof createSsoRepo>;
