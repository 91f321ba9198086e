// @gatehouse/react: React bindings for Gatehouse, named like Stack Auth's (`StackProvider`, `useUser`…). The SDK's
// apps and types are re-exported, so an app imports everything from here.
export * from "@gatehouse/sdk";
export {
  useContactChannels,
  usePermission,
  usePermissions,
  useProject,
  useTeam,
  useTeams,
  useUser,
} from "./hooks.ts";
export {
  StackProvider,
  type StackProviderProps,
  type ThemeMode,
  useStackApp,
  useStackSettings,
} from "./provider.tsx";
