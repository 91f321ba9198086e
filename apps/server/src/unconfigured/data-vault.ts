// Stack's data vault without a KMS: stores are declared in config as code (`dataVault.stores.<id>`), values arrive
// already encrypted by the SDK with the app's secret, and are sealed again with the server's secret at rest.
import { KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { createDataVaultRepo } from "../db/data-vault-repo.ts";
import type { Deps } from "../deps.ts";
import type { Project } from "../services/projects.ts";

export function createDataVault(deps: Pick<Deps, "db" | "configOverrides">, box: SecretBox, clock: Clock) {
  const repo = createDataVaultRepo(deps.db);

  /** The store must be declared in the project's rendered configuration, as Stack reads `config.dataVault.stores`. */
  async function requireStore(project: Project, storeId: string): Promise<void> {
    const { config_string } = await deps.configOverrides.render(project);
    const stores = (JSON.parse(config_string) as { dataVault?: { stores?: Record<string, unknown> } })
      .dataVault?.stores;
    if (!stores || !Object.hasOwn(stores, storeId) || stores[storeId] == null)
      throw KnownErrors.DATA_VAULT_STORE_DOES_NOT_EXIST({ store_id: storeId });
  }

  return {
    async get(project: Project, storeId: string, hashedKey: string): Promise<{ encrypted_value: string }> {
      await requireStore(project, storeId);
      const sealed = await repo.find(project.id, storeId, hashedKey);
      if (sealed === undefined)
        throw KnownErrors.DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST({
          store_id: storeId,
          hashed_key: hashedKey,
        });
      return { encrypted_value: box.open(sealed) };
    },

    async set(project: Project, storeId: string, hashedKey: string, encryptedValue: string): Promise<void> {
      await requireStore(project, storeId);
      await repo.upsert(project.id, storeId, hashedKey, box.seal(encryptedValue), clock.now());
    },
  };
}
