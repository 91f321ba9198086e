// The server artifact's package.json and package-lock.json: the runtime packages the bundle leaves out (native code,
// wasm and data files), at the versions the repository's lockfile pins, with their whole dependency tree copied from
// that lockfile, so `npm ci --omit=dev` in the artifact installs exactly what was tested, offline from the npm cache.
import { readFileSync } from "node:fs";
import { join } from "node:path";

type LockEntry = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  peer?: boolean;
  [field: string]: unknown;
};
type Lockfile = { lockfileVersion: number; packages: Record<string, LockEntry> };

/** Where Node would find `name` required from the package at `from` (a lockfile key): its own folder, then up. */
function locate(packages: Lockfile["packages"], from: string, name: string): string {
  let dir = from;
  for (;;) {
    const key = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[key]) return key;
    if (dir === "")
      throw new Error(`${name} (needed by ${from || "the artifact"}) is not in package-lock.json`);
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut === -1 ? "" : dir.slice(0, cut);
  }
}

/**
 * `names` resolved from the workspace `workspace` (e.g. apps/server), and everything they need. Entries keep their
 * lockfile keys (a workspace's own node_modules/ becomes the artifact's), so nested versions stay nested. A package is
 * optional in the artifact only when nothing reaches it but optional dependencies (platform binaries, pg-cloudflare).
 */
export function artifactLock(repoRoot: string, workspace: string, names: string[], artifactName: string) {
  const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as Lockfile;
  const required = new Map<string, boolean>(); // lockfile key -> reached by a non-optional edge
  const visit = (key: string, optional: boolean) => {
    const seen = required.get(key);
    if (seen === true || (seen === false && optional)) return;
    required.set(key, !optional);
    const entry = lock.packages[key] as LockEntry;
    const edges: [string, boolean][] = [
      ...Object.keys(entry.dependencies ?? {}).map((n): [string, boolean] => [n, optional]),
      ...Object.keys(entry.optionalDependencies ?? {}).map((n): [string, boolean] => [n, true]),
      // Peers that are not optional must be installed beside the package (pg-pool needs pg).
      ...Object.keys(entry.peerDependencies ?? {})
        .filter((n) => !entry.peerDependenciesMeta?.[n]?.optional)
        .map((n): [string, boolean] => [n, optional]),
    ];
    for (const [name, edgeOptional] of edges) visit(locate(lock.packages, key, name), edgeOptional);
  };
  const dependencies: Record<string, string> = {};
  for (const name of names) {
    const key = locate(lock.packages, workspace, name);
    dependencies[name] = lock.packages[key]?.version ?? "";
    visit(key, false);
  }

  const packages: Record<string, LockEntry> = {
    "": { name: artifactName, dependencies },
  };
  const prefix = `${workspace}/`;
  for (const [key, nonOptional] of [...required].sort(([a], [b]) => a.localeCompare(b))) {
    const {
      dev: _dev,
      devOptional: _devOptional,
      peer: _peer,
      optional: _optional,
      ...entry
    } = lock.packages[key] as LockEntry;
    const artifactKey = key.startsWith(prefix) ? key.slice(prefix.length) : key;
    if (packages[artifactKey])
      throw new Error(`${artifactKey} is needed in two versions; the artifact keeps one`);
    packages[artifactKey] = nonOptional ? entry : { ...entry, optional: true };
  }
  return {
    dependencies,
    lockfile: { name: artifactName, lockfileVersion: lock.lockfileVersion, requires: true, packages },
  };
}
