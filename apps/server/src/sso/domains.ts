// E-mail domains a team claims: proven by a DNS TXT record (`_gatehouse-challenge.<domain>` holding a random
// token), looked up through a configurable resolver (tests run a local DNS server). A verified domain routes
// sign-in by e-mail to the team's connection (sso/flow.ts), and may enforce SSO: `assertSsoNotRequired` refuses other
// sign-in methods for its addresses with SSO_REQUIRED.
import { randomBytes } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { KnownErrors, type SsoDomain } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { Project } from "../services/projects.ts";
import type { SsoDomainRow, SsoRepo } from "./repo.ts";

const RECORD_PREFIX = "_gatehouse-challenge";
const VALUE_PREFIX = "gatehouse-domain-verification=";
const DNS_TIMEOUT_MS = 3000;

export type SsoDomainsDeps = {
  repo: SsoRepo;
  teamsRepo: TeamsRepo;
  clock: Clock;
  /** Resolvers to ask (`host` or `host:port`); the system's when empty. */
  dnsServers: readonly string[];
};

export function createSsoDomains(deps: SsoDomainsDeps) {
  const toWire = (row: SsoDomainRow): SsoDomain => ({
    id: row.id,
    team_id: row.teamId,
    domain: row.domain,
    verified: row.verifiedAt !== null,
    verified_at_millis: row.verifiedAt?.getTime() ?? null,
    verification_record: {
      type: "TXT",
      name: `${RECORD_PREFIX}.${row.domain}`,
      value: `${VALUE_PREFIX}${row.verificationToken}`,
    },
    connection_id: row.connectionId,
    enforce_sso: row.enforceSso,
  });

  async function owned(db: Db, projectId: string, teamId: string, id: string): Promise<SsoDomainRow> {
    const row = await deps.repo.findDomain(db, projectId, teamId, id);
    if (!row) throw KnownErrors.SSO_DOMAIN_NOT_FOUND({ domain: id });
    return row;
  }

  async function assertConnection(db: Db, projectId: string, teamId: string, id: string | null | undefined) {
    if (!id) return;
    const connection = await deps.repo.findConnection(db, projectId, id);
    if (connection?.teamId !== teamId) throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: id });
  }

  async function txtRecords(name: string): Promise<string[]> {
    const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
    if (deps.dnsServers.length > 0) resolver.setServers([...deps.dnsServers]);
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
    } catch {
      return [];
    }
  }

  return {
    toWire,

    async list(db: Db, projectId: string, teamId: string): Promise<SsoDomain[]> {
      if (!(await deps.teamsRepo.findTeam(projectId, teamId, db)))
        throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
      return (await deps.repo.listDomains(db, projectId, teamId)).map(toWire);
    },

    async create(
      db: Db,
      projectId: string,
      teamId: string,
      input: { domain: string; connection_id?: string | null },
    ): Promise<SsoDomain> {
      if (!(await deps.teamsRepo.findTeam(projectId, teamId, db)))
        throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
      await assertConnection(db, projectId, teamId, input.connection_id);
      const domain = input.domain.toLowerCase();
      const existing = (await deps.repo.listDomains(db, projectId, teamId)).find((d) => d.domain === domain);
      if (existing) return toWire(existing);
      const row = await deps.repo.insertDomain(db, {
        id: crypto.randomUUID(),
        projectId,
        teamId,
        domain,
        // Random per claim: one team's published record proves nothing for another team's claim.
        verificationToken: randomBytes(24).toString("base64url"),
        connectionId: input.connection_id ?? null,
        createdAt: deps.clock.now(),
      });
      return toWire(row);
    },

    /** Looks the TXT record up now; verified once it holds this claim's value. */
    async verify(db: Db, projectId: string, teamId: string, id: string): Promise<SsoDomain> {
      const row = await owned(db, projectId, teamId, id);
      const expected = `${VALUE_PREFIX}${row.verificationToken}`;
      const records = await txtRecords(`${RECORD_PREFIX}.${row.domain}`);
      if (!records.includes(expected)) {
        throw KnownErrors.SSO_DOMAIN_VERIFICATION_FAILED({
          domain: row.domain,
          reason: `the TXT record ${RECORD_PREFIX}.${row.domain} does not hold ${expected}.`,
        });
      }
      try {
        const updated = await deps.repo.updateDomain(db, row.id, {
          verifiedAt: row.verifiedAt ?? deps.clock.now(),
        });
        return toWire(updated ?? row);
      } catch (error) {
        // One team per domain: another team of the project verified it first.
        if (!isUniqueViolation(error)) throw error;
        throw KnownErrors.SSO_DOMAIN_VERIFICATION_FAILED({
          domain: row.domain,
          reason: "another team of this project has verified it.",
        });
      }
    },

    async update(
      db: Db,
      projectId: string,
      teamId: string,
      id: string,
      changes: { connection_id?: string | null; enforce_sso?: boolean },
    ): Promise<SsoDomain> {
      const row = await owned(db, projectId, teamId, id);
      await assertConnection(db, projectId, teamId, changes.connection_id);
      const updated = await deps.repo.updateDomain(db, row.id, {
        connectionId: changes.connection_id,
        enforceSso: changes.enforce_sso,
      });
      return toWire(updated ?? row);
    },

    async delete(db: Db, projectId: string, teamId: string, id: string): Promise<void> {
      await deps.repo.deleteDomain(db, (await owned(db, projectId, teamId, id)).id);
    },

    /**
     * SSO_REQUIRED when the address's domain is verified by a team that enforces SSO for it: the project row's list,
     * which a trigger keeps (migration 0025), so the request's own read of the project answers without a query.
     */
    assertSsoNotRequired(project: Pick<Project, "ssoEnforcedDomains">, email: string): void {
      const domain = email.split("@").pop()?.toLowerCase();
      if (domain && project.ssoEnforcedDomains.includes(domain)) throw KnownErrors.SSO_REQUIRED({ domain });
    },
  };
}

export type SsoDomains = ReturnType<typeof createSsoDomains>;
