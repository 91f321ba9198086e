// The SSO capability's parts, built once from the composition root (deps.ts): connections, the relying parties, the
// provisioning rules and the sign-in flow.

import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { createSecretBox } from "../crypto/secret-box.ts";
import type { Db } from "../db/client.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import type { SessionsRepo } from "../db/sessions-repo.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { TeamService } from "../services/teams.ts";
import type { UserService } from "../services/users.ts";
import type { VerificationCodeService } from "../services/verification-codes.ts";
import type { WebhookEvents } from "../webhooks/events.ts";
import { createSsoConnections } from "./connections.ts";
import { createSsoDomains } from "./domains.ts";
import { createSsoFlow } from "./flow.ts";
import { createOidcRelyingParty } from "./oidc.ts";
import { createProvisioning } from "./provisioning.ts";
import { createSsoRepo } from "./repo.ts";
import { createSamlServiceProvider, samlEncryptionKey } from "./saml.ts";
import { createScim } from "./scim/index.ts";

export type SsoDeps = {
  db: Db;
  clock: Clock;
  secret: string;
  baseUrl: string;
  codes: VerificationCodeService;
  projectsRepo: ProjectsRepo;
  teamsRepo: TeamsRepo;
  usersRepo: UsersRepo;
  sessionsRepo: SessionsRepo;
  users: UserService;
  teams: TeamService;
  events: WebhookEvents;
  audit: AuditLog;
  /** IdP metadata URLs and OIDC issuers may point at loopback and private addresses (tests and development only). */
  allowPrivateUrls: boolean;
  /** Resolvers for domain verification (`host` or `host:port`); the system's when empty. */
  dnsServers: readonly string[];
};

export function createSso(deps: SsoDeps) {
  const repo = createSsoRepo();
  const secretsBox = createSecretBox(deps.secret, "sso-secrets");
  const saml = createSamlServiceProvider({
    baseUrl: deps.baseUrl,
    allowPrivateUrls: deps.allowPrivateUrls,
    openKey: (sealed) => secretsBox.open(sealed),
  });
  const connections = createSsoConnections({
    repo,
    teamsRepo: deps.teamsRepo,
    events: deps.events,
    audit: deps.audit,
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    box: secretsBox,
    samlSettings: saml.settingsFrom,
    samlEncryptionKey,
  });
  const scim = createScim({
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    ssoRepo: repo,
    projectsRepo: deps.projectsRepo,
    teamsRepo: deps.teamsRepo,
    usersRepo: deps.usersRepo,
    sessionsRepo: deps.sessionsRepo,
    users: deps.users,
    teams: deps.teams,
    events: deps.events,
  });
  const provisioning = createProvisioning({
    repo,
    isDeactivated: scim.isDeactivated,
    usersRepo: deps.usersRepo,
    users: deps.users,
    teams: deps.teams,
    events: deps.events,
  });
  const flow = createSsoFlow({
    db: deps.db,
    clock: deps.clock,
    codes: deps.codes,
    projectsRepo: deps.projectsRepo,
    repo,
    provisioning,
    oidc: createOidcRelyingParty({
      clock: deps.clock,
      box: secretsBox,
      allowPrivateUrls: deps.allowPrivateUrls,
    }),
    saml,
    baseUrl: deps.baseUrl,
    box: createSecretBox(deps.secret, "sso-flow"),
    withEncryptionKey: (connection) => connections.withEncryptionKey(deps.db, connection),
  });
  const domains = createSsoDomains({
    repo,
    teamsRepo: deps.teamsRepo,
    clock: deps.clock,
    dnsServers: deps.dnsServers,
  });
  return { repo, connections, domains, flow, provisioning, scim };
}

export type Sso = ReturnType<typeof createSso>;
