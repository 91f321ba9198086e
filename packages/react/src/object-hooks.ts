// Stack's object-method hooks (`user.useTeams()`, `team.useUsers()`, `app.useTeams()`…): each is the React twin of an
// SDK read (`listTeams`, `listUsers`…), attached by the React bindings to the objects their hooks hand out, so
// @gatehouse/sdk stays free of React and its client bundle does not grow.
import { useSyncExternalStore } from "react";
import { type BindingStore, read, type Tracked } from "./store.ts";

/** Each hook and the SDK read it stands for: Stack names them alike (list… / get… → use…). */
export const HOOK_READS = {
  useTeams: "listTeams",
  useTeam: "getTeam",
  useUsers: "listUsers",
  useContactChannels: "listContactChannels",
  usePermissions: "listPermissions",
  usePermission: "getPermission",
  useOAuthProviders: "listOAuthProviders",
  useOAuthProvider: "getOAuthProvider",
  useApiKeys: "listApiKeys",
  useNotificationCategories: "listNotificationCategories",
  useTeamInvitations: "listTeamInvitations",
  useInvitations: "listInvitations",
  useTeamProfile: "getTeamProfile",
  useConnectedAccounts: "listConnectedAccounts",
  useConnectedAccount: "getConnectedAccount",
  useOrLinkConnectedAccount: "getOrLinkConnectedAccount",
  useTeamMemberPermissions: "listTeamMemberPermissions",
  useEmailDeliveryStats: "getEmailDeliveryStats",
  useAccessToken: "getAccessToken",
  useRefreshToken: "getRefreshToken",
  useAuthJson: "getAuthJson",
  useAuthHeaders: "getAuthHeaders",
  useAuthorizationHeader: "getAuthorizationHeader",
  usePartialUser: "getPartialUser",
  useBilling: "getBilling",
  useItem: "getItem",
  useProducts: "listProducts",
  useInvoices: "listInvoices",
} as const;

type Reads = typeof HOOK_READS;

/** A read's signatures (up to three overloads) as hook signatures: the hook answers what the read resolves to. */
type HookOf<F> = F extends {
  (...args: infer A1): infer R1;
  (...args: infer A2): infer R2;
  (...args: infer A3): infer R3;
}
  ? ((...args: A1) => Hooked<Awaited<R1>>) &
      ((...args: A2) => Hooked<Awaited<R2>>) &
      ((...args: A3) => Hooked<Awaited<R3>>)
  : never;

/** The hooks an object of type T carries: one per SDK read it has. */
export type ObjectHooks<T> = {
  [H in keyof Reads as Reads[H] extends keyof T
    ? T[Reads[H]] extends (...args: never[]) => unknown
      ? H
      : never
    : never]: HookOf<T[Reads[H] & keyof T]>;
};

/** An admin project (Stack's AdminProject): its rendered config, and word of each write to it. */
type ConfigProject = {
  id: string;
  getConfig(): Promise<Record<string, unknown>>;
  onConfigChange(listener: () => void): () => void;
};

/** Stack's `project.useConfig()`, on an admin project. */
type ConfigHook<T> = T extends ConfigProject ? { useConfig(): Awaited<ReturnType<T["getConfig"]>> } : unknown;

export type WithHooks<T> = T & ObjectHooks<T> & ConfigHook<T>;

/** What a hook answers: the read's value, whose objects (alone or in a list, as with a page of users) carry hooks. */
export type Hooked<R> = R extends readonly (infer E)[]
  ? WithHooks<E>[] & Omit<R, number | keyof unknown[]>
  : R extends object
    ? WithHooks<R>
    : R;

/**
 * Whose read a hook is: the object, and the name under which an earlier object's answer stands in while the read
 * loads (a user's id: after a write the SDK hands out a new user object, which reads again without a fallback).
 */
export type Scope = { owner: object; identity: string };

const attached = new WeakSet<object>();

/**
 * Gives `target` (in place, as non-enumerable members) a hook for each SDK read it has, reading through `store`.
 * `scope` says whose read it is; for an app it is itself a hook (the signed-in user's generation), so it is called
 * in render like the hook it serves. Already-equipped objects are left as they are.
 */
export function attachHooks<T extends object>(
  target: T,
  store: BindingStore,
  scope: () => Scope,
): WithHooks<T> {
  if (attached.has(target) || Object.isFrozen(target)) return target as WithHooks<T>;
  attached.add(target);
  const methods = target as unknown as Record<string, unknown>;
  for (const [hook, method] of Object.entries(HOOK_READS)) {
    const readFn = methods[method];
    if (typeof readFn !== "function" || hook in target) continue;
    // Named as a hook: it is one (called in render, in the same order every time).
    const useHook = (...args: unknown[]) => {
      const { owner, identity } = scope();
      return useOwnedRead(store, owner, identity, `${hook}${argsKey(args)}`, () =>
        Promise.resolve(readFn.apply(target, args)).then((value) => equip(value, store)),
      );
    };
    Object.defineProperty(target, hook, { configurable: true, enumerable: false, value: useHook });
  }
  if (isConfigProject(target) && !("useConfig" in target)) {
    const useConfig = () => useConfigOf(target, store);
    Object.defineProperty(target, "useConfig", { configurable: true, enumerable: false, value: useConfig });
  }
  return target as WithHooks<T>;
}

const isConfigProject = (value: object): value is ConfigProject =>
  typeof (value as Partial<ConfigProject>).getConfig === "function" &&
  typeof (value as Partial<ConfigProject>).onConfigChange === "function";

/**
 * Each admin project's config generation: a new object after every config write through its app, which owns the
 * next read (so useConfig reads again), while the read of the previous generation stands in until it arrives.
 */
type ConfigGeneration = { current: object; listeners: Set<() => void>; unsubscribe?: () => void };
const configGenerations = new WeakMap<ConfigProject, ConfigGeneration>();

function configGenerationOf(project: ConfigProject): ConfigGeneration {
  let generation = configGenerations.get(project);
  if (!generation) {
    generation = { current: {}, listeners: new Set() };
    configGenerations.set(project, generation);
  }
  return generation;
}

/** Stack's `project.useConfig()`: the rendered config, suspending on the first read, read again after each write. */
function useConfigOf(project: ConfigProject, store: BindingStore): Record<string, unknown> {
  const generation = configGenerationOf(project);
  const owner = useSyncExternalStore(
    (listener) => {
      generation.listeners.add(listener);
      // One subscription to the SDK per project, for as long as a component shows its config.
      generation.unsubscribe ??= project.onConfigChange(() => {
        generation.current = {};
        for (const notify of [...generation.listeners]) notify();
      });
      return () => {
        generation.listeners.delete(listener);
        if (generation.listeners.size === 0) {
          generation.unsubscribe?.();
          generation.unsubscribe = undefined;
        }
      };
    },
    () => generation.current,
    () => generation.current,
  );
  return useOwnedRead(store, owner, `config:${project.id}`, "useConfig", () => project.getConfig());
}

/** Users and teams: reads are kept with the object, and stand in for each other under the object's id. */
export function attachObjectHooks<T extends object>(target: T, store: BindingStore): WithHooks<T> {
  const id = (target as { id?: unknown }).id;
  const scope: Scope = { owner: target, identity: typeof id === "string" ? id : "" };
  return attachHooks(target, store, () => scope);
}

/** Equips what a read answered: an object with reads of its own, or each such object of a list. */
export function equip<T>(value: T, store: BindingStore): T {
  if (Array.isArray(value)) for (const item of value) equip(item, store);
  else if (value && typeof value === "object" && "id" in value) attachObjectHooks(value, store);
  return value;
}

/** The key of a read's arguments: objects with an id (a team given as scope) by that id. */
function argsKey(args: unknown[]): string {
  if (args.length === 0) return "";
  return JSON.stringify(args, (key, value: unknown) =>
    key !== "" && value && typeof value === "object" && "id" in value ? `#${String(value.id)}` : value,
  );
}

/**
 * A read kept with `owner`, suspending until its first answer; a newer owner's read shows the previous answer of the
 * same identity while it loads. Without an owner (no signed-in user), `signedOut` is the answer.
 */
export function useOwnedRead<T>(
  store: BindingStore,
  owner: object | null,
  identity: string,
  name: string,
  load: () => Promise<T>,
  signedOut?: Tracked<T>,
): T {
  const { current, stale } =
    owner || !signedOut
      ? store.ownedRead(owner ?? store, identity, name, load)
      : { current: signedOut, stale: undefined };
  const outcome = useSyncExternalStore(
    current.subscribe,
    () => current.outcome,
    () => current.outcome,
  );
  if (!outcome && stale) return stale.value;
  return read(current);
}
