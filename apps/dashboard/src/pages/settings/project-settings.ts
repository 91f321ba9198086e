// The project's settings as the admin SDK reads them, shared by the permissions, authentication and domains screens:
// one keyed read of the admin view, and a save that patches it and re-reads it on every screen that shows it.
import type { OwnedProject } from "@gatehouse/react";
import { invalidate, useQuery } from "../../data.ts";
import { projectKey } from "../../project.tsx";

export type AdminProject = Awaited<ReturnType<OwnedProject["app"]["getProject"]>>;
export type ProjectUpdate = Parameters<AdminProject["update"]>[0];

/** A provider entry as written (WIRE.md §4.13); the admin view adds the read-only `providerConfigId`. */
export type OAuthProviderConfig = {
  id: string;
  type: "shared" | "standard";
  enabled: boolean;
  clientId?: string;
  clientSecret?: string;
  facebookConfigId?: string;
  microsoftTenantId?: string;
  issuerUrl?: string;
};

export type TrustedDomain = { domain: string; handlerPath: string };

/** The admin view's configuration keys these screens read, in the SDK's camelCase. */
export type SettingsConfig = {
  signUpEnabled: boolean;
  credentialEnabled: boolean;
  magicLinkEnabled: boolean;
  passkeyEnabled: boolean;
  clientTeamCreationEnabled: boolean;
  clientUserDeletionEnabled: boolean;
  createTeamOnSignUp: boolean;
  allowLocalhost: boolean;
  domains: TrustedDomain[];
  oauthProviders: (OAuthProviderConfig & { providerConfigId?: string })[];
  teamCreatorDefaultPermissions: { id: string }[];
  teamMemberDefaultPermissions: { id: string }[];
};

export type ProjectSettings = {
  config: SettingsConfig;
  isProductionMode: boolean;
  /** The server's production-mode problems (WIRE.md §7 wording), as it would refuse the switch with them. */
  productionModeErrors: string[] | undefined;
};

export const settingsKey = (project: OwnedProject) => projectKey(project, "project");

/** The project's admin view, read once and shared. */
export function useProjectSettings(project: OwnedProject): ProjectSettings {
  const admin = useQuery(settingsKey(project), () => project.app.getProject());
  return settingsOf(admin);
}

export function settingsOf(admin: AdminProject): ProjectSettings {
  // The admin view's keys beyond the typed ones (isProductionMode, productionModeErrors) come as they are.
  const view = admin as { isProductionMode?: unknown; productionModeErrors?: unknown };
  const errors = view.productionModeErrors;
  return {
    config: admin.config as unknown as SettingsConfig,
    isProductionMode: view.isProductionMode === true,
    productionModeErrors: Array.isArray(errors) ? (errors as string[]) : undefined,
  };
}

/** Saves a change to the project and re-reads it everywhere. */
export async function saveProject(project: OwnedProject, update: ProjectUpdate): Promise<void> {
  try {
    const admin = await project.app.getProject();
    await admin.update(update);
  } finally {
    // Also after a refusal: another screen may have changed the project meanwhile.
    invalidate(settingsKey(project));
  }
}
