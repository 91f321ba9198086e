// The peer of `npm run bench`: Better Auth with its documented defaults (email and password, PostgreSQL through a
// pg Pool, its own tables made by its programmatic migrate) behind Hono on @hono/node-server, the way its Hono guide
// mounts it, in a process of its own. Prints "better-auth listening" once it serves.
import { serve } from "@hono/node-server";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { Hono } from "hono";
import pg from "pg";

const { PORT, DATABASE_URL } = process.env;
if (!PORT || !DATABASE_URL) throw new Error("better-auth-server.ts needs PORT and DATABASE_URL");

const baseURL = `http://localhost:${PORT}`;
const auth = betterAuth({
  baseURL,
  secret: "bench-secret-bench-secret-bench-secret-0123456789",
  database: new pg.Pool({ connectionString: DATABASE_URL }),
  emailAndPassword: { enabled: true },
  // Off as Gatehouse's are in the benchmark: one client address sends far more than any limit allows, on purpose.
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
});

const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const app = new Hono();
app.on(["POST", "GET"], "/api/auth/*", (c) => auth.handler(c.req.raw));

serve({ fetch: app.fetch, port: Number(PORT) }, () => process.stdout.write("better-auth listening\n"));
process.on("SIGTERM", () => process.exit(0));
