// Seeding of the internal project (WIRE.md §8): idempotent, the seeded key set rewritten from the given keys and
// stored hashed, the project's seeded config, and settings from the environment applied while the rest is kept.
// The demo project: owned by the internal owner team (adopted when it had no owner), with its own seeded keys.
import type { ProjectConfig } from "@gatehouse/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeedSettings } from "../config.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { generateApiKey } from "../crypto/random.ts";
import type { InternalKeys, ProjectKeys } from "../data-dir.ts";
import { KEY_HASH_COLUMNS } from "../db/api-keys-repo.ts";
import { inTransaction } from "../db/client.ts";
import { apiKeySets, projects } from "../db/schema.ts";
import { createTestServer, TEST_BASE_URL, type TestServer } from "../testing/test-server.ts";
import {
  DEMO_PROJECT_ID,
  INTERNAL_PROJECT_ID,
  SEEDED_DEMO_KEY_SET_ID,
  SEEDED_KEY_SET_ID,
  seedDemoProject,
  seedInternalProject,
} from "./seed.ts";

let server: TestServer;
let keys: InternalKeys;

/** Whether the server accepts `key` as a key of this kind for the project, as a request would ask. */
async function isValid(
  kind: "pck" | "ssk" | "sak",
  key: string,
  projectId = INTERNAL_PROJECT_ID,
): Promise<boolean> {
  const found = await server.deps.requestRepo.lookup({
    projectId,
    key: { column: KEY_HASH_COLUMNS[kind], hash: sha256Hex(key) },
    now: server.clock.now(),
  });
  return found?.keyValid === true;
}

beforeAll(async () => {
  server = await createTestServer();
  keys = {
    publishableClientKey: server.internal.pck,
    secretServerKey: server.internal.ssk,
    superSecretAdminKey: server.internal.sak,
  };
});

afterAll(async () => {
  await server?.close();
});

const seed = (settings: SeedSettings, seedKeys: InternalKeys = keys) =>
  seedInternalProject({ ...server.deps, seed: settings, keys: seedKeys });

const internalProjects = () =>
  server.deps.db.select().from(projects).where(eq(projects.id, INTERNAL_PROJECT_ID));
const internalKeySets = () =>
  server.deps.db.select().from(apiKeySets).where(eq(apiKeySets.projectId, INTERNAL_PROJECT_ID));

async function internalConfig(): Promise<ProjectConfig> {
  const [project] = await internalProjects();
  if (!project) throw new Error("No internal project");
  return project.config;
}

describe("seedInternalProject", () => {
  it("is idempotent: one internal project and one seeded key set, stored hashed", async () => {
    await seed({});
    await seed({});

    const rows = await internalProjects();
    expect(rows.map((p) => p.id)).toEqual([INTERNAL_PROJECT_ID]);
    expect(rows[0]?.displayName).toBe("Gatehouse Dashboard");

    const sets = await internalKeySets();
    expect(sets).toHaveLength(1);
    const set = sets[0]!;
    expect(set.id).toBe(SEEDED_KEY_SET_ID);
    expect(set.expiresAt.toISOString()).toBe("2099-12-31T00:00:00.000Z");
    expect(set.manuallyRevokedAt).toBeNull();
    expect({
      pck: set.publishableClientKeyHash,
      ssk: set.secretServerKeyHash,
      sak: set.superSecretAdminKeyHash,
    }).toEqual({
      pck: sha256Hex(keys.publishableClientKey),
      ssk: sha256Hex(keys.secretServerKey),
      sak: sha256Hex(keys.superSecretAdminKey),
    });
    expect({
      pck: set.publishableClientKeyLastFour,
      ssk: set.secretServerKeyLastFour,
      sak: set.superSecretAdminKeyLastFour,
    }).toEqual({
      pck: keys.publishableClientKey.slice(-4),
      ssk: keys.secretServerKey.slice(-4),
      sak: keys.superSecretAdminKey.slice(-4),
    });
    expect(set.publishableClientKeyLastFour).toHaveLength(4);

    // No column holds a working key, or the random part of one.
    const stored = JSON.stringify(set);
    for (const key of Object.values(keys)) {
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(key.slice(4));
    }
  });

  it("keeps the seeded keys valid across reseeding", async () => {
    await seed({});
    expect(await isValid("pck", keys.publishableClientKey)).toBe(true);
    expect(await isValid("ssk", keys.secretServerKey)).toBe(true);
    expect(await isValid("sak", keys.superSecretAdminKey)).toBe(true);
    // A key of one kind is not accepted as another.
    expect(await isValid("ssk", keys.publishableClientKey)).toBe(false);
  });

  it("replaces a key whose value changed and keeps the others", async () => {
    const newPck = generateApiKey("pck");
    const oldPck = keys.publishableClientKey;
    await seed({}, { ...keys, publishableClientKey: newPck });
    try {
      expect(await isValid("pck", oldPck)).toBe(false);
      expect(await isValid("pck", newPck)).toBe(true);
      expect(await isValid("ssk", keys.secretServerKey)).toBe(true);
      expect(await isValid("sak", keys.superSecretAdminKey)).toBe(true);

      const sets = await internalKeySets();
      expect(sets.map((s) => s.id)).toEqual([SEEDED_KEY_SET_ID]);
      expect(sets[0]?.publishableClientKeyHash).toBe(sha256Hex(newPck));
      expect(sets[0]?.publishableClientKeyLastFour).toBe(newPck.slice(-4));
    } finally {
      // Back to the server's keys, so the tests after this one see the original set.
      await seed({});
    }
    expect(await isValid("pck", oldPck)).toBe(true);
    expect(await isValid("pck", newPck)).toBe(false);
  });

  it("gives the internal project its seeded config", async () => {
    const config = await internalConfig();
    expect(config.credential_enabled).toBe(true);
    expect(config.create_team_on_sign_up).toBe(true);
    expect(config.client_team_creation_enabled).toBe(true);
    expect(config.domains).toEqual([
      { domain: new URL(TEST_BASE_URL).origin, handler_path: "/dashboard/handler" },
    ]);
    expect(config.domains[0]?.domain).toBe("http://localhost:8102");
    // Settings not seeded keep the project defaults (WIRE.md §8 table).
    expect(config.sign_up_enabled).toBe(true);
    expect(config.magic_link_enabled).toBe(false);
    expect(config.allow_localhost).toBe(true);
    expect(config.client_user_deletion_enabled).toBe(false);
    // [GO] No instance keys and no development switch naming it: no OAuth button that leads nowhere, and no
    // stand-in page where anyone could sign up as the first operator.
    expect(config.oauth_providers).toEqual([]);
  });

  it("offers GitHub and Google on shared keys where the instance serves them: test identities only when named", async () => {
    for (const [developmentOAuth, expected] of [
      [["internal"], ["github", "google"]],
      [["*"], []],
    ] as const) {
      const other = await createTestServer({ developmentOAuth: [...developmentOAuth] });
      try {
        const internal = await other.deps.projects.find(INTERNAL_PROJECT_ID);
        expect(internal?.config.oauth_providers.map((p) => p.id)).toEqual(expected);
      } finally {
        await other.close();
      }
    }
  });

  it("applies the settings given to the existing project", async () => {
    await seed({ signUpEnabled: false, otpEnabled: true, allowLocalhost: false, oauthProviders: ["github"] });
    const config = await internalConfig();
    expect({
      sign_up_enabled: config.sign_up_enabled,
      magic_link_enabled: config.magic_link_enabled,
      allow_localhost: config.allow_localhost,
      oauth_providers: config.oauth_providers,
    }).toEqual({
      sign_up_enabled: false,
      magic_link_enabled: true,
      allow_localhost: false,
      oauth_providers: [{ id: "github", type: "shared", enabled: true }],
    });
    // The rest of the seeded config is untouched.
    expect(config.create_team_on_sign_up).toBe(true);
    expect(config.domains).toEqual([{ domain: TEST_BASE_URL, handler_path: "/dashboard/handler" }]);
  });

  it("keeps settings not given as they were changed since", async () => {
    const before = await internalConfig();
    await inTransaction(server.deps.db, (tx) =>
      server.deps.projectsRepo.updateConfig(tx, INTERNAL_PROJECT_ID, {
        ...before,
        client_user_deletion_enabled: true,
      }),
    );

    await seed({});
    const afterEmpty = await internalConfig();
    expect(afterEmpty).toEqual({ ...before, client_user_deletion_enabled: true });

    // A seed that names only one setting changes only that one.
    await seed({ signUpEnabled: true });
    const afterOne = await internalConfig();
    expect(afterOne).toEqual({ ...before, client_user_deletion_enabled: true, sign_up_enabled: true });
    expect(afterOne.magic_link_enabled).toBe(true);
    expect(afterOne.allow_localhost).toBe(false);
  });

  it("replaces the OAuth provider list with the one given, and an empty list clears it", async () => {
    await seed({ oauthProviders: ["google", "github"] });
    expect((await internalConfig()).oauth_providers).toEqual([
      { id: "google", type: "shared", enabled: true },
      { id: "github", type: "shared", enabled: true },
    ]);
    await seed({ oauthProviders: [] });
    expect((await internalConfig()).oauth_providers).toEqual([]);
  });

  it("gives the internal project one owner team and its own permission definitions", async () => {
    await seed({});
    const [before] = await internalProjects();
    await seed({});
    const [after] = await internalProjects();
    expect(before?.ownerTeamId).toBeTruthy();
    expect(after?.ownerTeamId).toBe(before?.ownerTeamId);
    const team = await server.deps.teamsRepo.findTeam(INTERNAL_PROJECT_ID, String(after?.ownerTeamId));
    expect(team?.displayName).toBe("Gatehouse operators");
    const custom = (await server.deps.permissions.listDefinitions(INTERNAL_PROJECT_ID)).filter(
      (d) => !d.id.startsWith("$"),
    );
    expect(custom).toEqual([
      { id: "team_admin", contained_permission_ids: ["$read_members", "$remove_members", "$update_team"] },
      { id: "team_member", contained_permission_ids: ["$read_members"] },
    ]);
  });

  it("creates the operator account once, signing in with its password, and gives it internal access", async () => {
    const user = { email: "Operator@Example.com", password: "operator password 1", internalAccess: true };
    await seed({ user });
    await seed({ user: { ...user, password: "another password 2" } });
    const operator = await server.deps.usersRepo.findByAuthEmail(INTERNAL_PROJECT_ID, "operator@example.com");
    expect(operator?.primaryEmail).toEqual({ value: user.email, isVerified: true, usedForAuth: true });
    // The second start did not change the password of the existing account.
    expect(await server.deps.hasher.verify(String(operator?.passwordHash), user.password)).toBe(true);
    const [project] = await internalProjects();
    const ownerTeamId = String(project?.ownerTeamId);
    expect(await server.deps.teamsRepo.findMember(ownerTeamId, String(operator?.id))).toBeTruthy();
    // Internal projects create a personal team on sign-up: the operator has one, selected.
    expect(operator?.selectedTeam?.displayName).toBe("Operator@Example.com's Team");

    const plain = { email: "viewer@example.com", password: "viewer password 1", internalAccess: false };
    await seed({ user: plain });
    const viewer = await server.deps.usersRepo.findByAuthEmail(INTERNAL_PROJECT_ID, plain.email);
    expect(viewer).toBeTruthy();
    expect(await server.deps.teamsRepo.findMember(ownerTeamId, String(viewer?.id))).toBeUndefined();
  });

  it("creates the project with the given settings when it does not exist", async () => {
    // Last test: drops the internal project (its keys cascade) and seeds from scratch.
    await server.deps.db.delete(projects).where(eq(projects.id, INTERNAL_PROJECT_ID));
    expect(await internalKeySets()).toEqual([]);

    await seed({ signUpEnabled: false, oauthProviders: ["github"] });
    const config = await internalConfig();
    expect(config).toMatchObject({
      sign_up_enabled: false,
      magic_link_enabled: false,
      allow_localhost: true,
      client_user_deletion_enabled: false,
      credential_enabled: true,
      create_team_on_sign_up: true,
      client_team_creation_enabled: true,
      oauth_providers: [{ id: "github", type: "shared", enabled: true }],
      domains: [{ domain: TEST_BASE_URL, handler_path: "/dashboard/handler" }],
    });
    expect((await internalKeySets()).map((s) => s.id)).toEqual([SEEDED_KEY_SET_ID]);
    expect(await isValid("sak", keys.superSecretAdminKey)).toBe(true);
  });
});

describe("seedDemoProject", () => {
  const demoKeys: ProjectKeys = {
    publishableClientKey: generateApiKey("pck"),
    secretServerKey: generateApiKey("ssk"),
    superSecretAdminKey: generateApiKey("sak"),
  };
  const seedDemo = () => seedDemoProject({ ...server.deps, keys: demoKeys, appUrl: "http://localhost:8103" });
  const demoOwner = async () => (await server.deps.projects.find(DEMO_PROJECT_ID))?.ownerTeamId;
  const internalOwner = async () => (await server.deps.projects.find(INTERNAL_PROJECT_ID))?.ownerTeamId;

  it("creates the demo app's project once, every sign-in method on, and keeps the developer's later changes", async () => {
    expect(await server.deps.projects.find(DEMO_PROJECT_ID)).toBeUndefined();
    await seedDemo();
    const created = await server.deps.projects.find(DEMO_PROJECT_ID);
    expect(created?.config).toMatchObject({
      credential_enabled: true,
      magic_link_enabled: true,
      passkey_enabled: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: true,
      allow_localhost: true,
      // The demo app, so the project's links and the dashboard's Impersonate lead to it.
      domains: [{ domain: "http://localhost:8103", handler_path: "/handler" }],
      oauth_providers: [
        { id: "github", type: "shared", enabled: true },
        { id: "google", type: "shared", enabled: true },
      ],
    });

    await server.deps.db
      .update(projects)
      .set({ displayName: "Renamed" })
      .where(eq(projects.id, DEMO_PROJECT_ID));
    await seedDemo();
    expect((await server.deps.projects.find(DEMO_PROJECT_ID))?.displayName).toBe("Renamed");
  });

  it("belongs to the internal project's owner team, so the operators' project list has it", async () => {
    const ownerTeamId = await internalOwner();
    expect(ownerTeamId).toBeTruthy();
    expect(await demoOwner()).toBe(ownerTeamId);
    // An operator: a member of the internal project's owner team, as the first sign-up or the seeded account is.
    const email = "demo-operator@example.com";
    await seed({ user: { email, password: "operator password 3", internalAccess: true } });
    const operator = await server.deps.usersRepo.findByAuthEmail(INTERNAL_PROJECT_ID, email);
    const listed = await server.deps.projects.listOwnedBy(String(operator?.id));
    expect(listed.map((p) => p.id)).toContain(DEMO_PROJECT_ID);
    expect(listed.find((p) => p.id === DEMO_PROJECT_ID)?.owner_team_id).toBe(ownerTeamId);
  });

  it("adopts a demo project left without an owner by an earlier start, and keeps an owner chosen since", async () => {
    await server.deps.db.update(projects).set({ ownerTeamId: null }).where(eq(projects.id, DEMO_PROJECT_ID));
    expect(await demoOwner()).toBeNull();
    await seedDemo();
    expect(await demoOwner()).toBe(await internalOwner());

    const internal = await server.deps.projects.find(INTERNAL_PROJECT_ID);
    if (!internal) throw new Error("No internal project");
    const other = await inTransaction(server.deps.db, (tx) =>
      server.deps.teams.create(tx, internal, { displayName: "Demo keepers" }),
    );
    await inTransaction(server.deps.db, (tx) =>
      server.deps.projectsRepo.setOwnerTeam(tx, DEMO_PROJECT_ID, other.id),
    );
    await seedDemo();
    expect(await demoOwner()).toBe(other.id);
  });

  it("has its own seeded keys, valid for the demo only, beside the internal project's", async () => {
    await seedDemo();
    expect(await isValid("pck", demoKeys.publishableClientKey, DEMO_PROJECT_ID)).toBe(true);
    expect(await isValid("ssk", demoKeys.secretServerKey, DEMO_PROJECT_ID)).toBe(true);
    expect(await isValid("sak", demoKeys.superSecretAdminKey, DEMO_PROJECT_ID)).toBe(true);
    // An admin key administers only its own project: neither project accepts the other's.
    expect(await isValid("sak", demoKeys.superSecretAdminKey)).toBe(false);
    expect(await isValid("sak", keys.superSecretAdminKey, DEMO_PROJECT_ID)).toBe(false);
    const sets = await server.deps.db
      .select()
      .from(apiKeySets)
      .where(eq(apiKeySets.projectId, DEMO_PROJECT_ID));
    expect(sets.map((set) => set.id)).toEqual([SEEDED_DEMO_KEY_SET_ID]);
    expect(sets[0]?.description).toBe("Seeded keys of the demo project");
    expect(JSON.stringify(sets)).not.toContain(demoKeys.superSecretAdminKey);
    expect((await internalKeySets()).map((set) => set.id)).toEqual([SEEDED_KEY_SET_ID]);
    expect(await isValid("sak", keys.superSecretAdminKey)).toBe(true);
  });
});
