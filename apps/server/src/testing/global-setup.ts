// Vitest global setup: migrates one template database per run (PGlite dump file, or a PostgreSQL template
// database when the project runs against DATABASE_URL) and tells the test workers where it is.
import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { dumpPglite, openPglite, openPostgres } from "../db/client.ts";
import { adminQuery, withDatabase } from "./test-database.ts";

export default async function setup(project: TestProject) {
  // Every project but pglite (postgres, and chaos, which restarts the server) runs on PostgreSQL.
  if (project.name !== "pglite") {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error("The postgres test project needs DATABASE_URL");
    const templateName = `gatehouse_template_${randomBytes(6).toString("hex")}`;
    await adminQuery(adminUrl, `create database ${templateName}`);
    const template = openPostgres(withDatabase(adminUrl, templateName));
    await template.migrate();
    await template.close();
    project.provide("testDbTemplate", { kind: "postgres", adminUrl, templateName });
    return () => adminQuery(adminUrl, `drop database if exists ${templateName} with (force)`);
  }
  const database = await openPglite();
  await database.migrate();
  const dumpFile = join(tmpdir(), `gatehouse-template-${randomBytes(6).toString("hex")}.tar`);
  await writeFile(dumpFile, Buffer.from(await (await dumpPglite(database)).arrayBuffer()));
  await database.close();
  project.provide("testDbTemplate", { kind: "pglite", dumpFile });
  return () => rm(dumpFile, { force: true });
}
