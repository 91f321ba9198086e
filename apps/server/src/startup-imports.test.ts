// What the server loads to start: the libraries only some installs or some requests need (Redis, the HTML pages'
// renderer, SSO, the OpenID Provider, import parsers, e-mail, tracing, password strength) load when first used, so
// an idle server holds none of them (issue 24: idle memory). startup-imports-postgres.test.ts: the same on PostgreSQL.
import { expect, it } from "vitest";
import { LOADED_ON_USE, packagesLoadedAtStart } from "./testing/startup-packages.ts";

it("starts without the libraries it needs only on use", async () => {
  const packages = await packagesLoadedAtStart({});
  expect(packages).toContain("@electric-sql/pglite");
  expect(packages.filter((name) => LOADED_ON_USE.includes(name))).toEqual([]);
}, 120_000);
