// The floor for the benchmark: a bare Hono endpoint that does the least a "current user" request must do — verify
// the same ES256 access token against the project's JWKS and read one row by primary key — with nothing else.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import pg from "pg";

const { PORT, DATABASE_URL, JWKS_URL, ISSUER, AUDIENCE } = process.env;
if (!PORT || !DATABASE_URL || !JWKS_URL || !ISSUER || !AUDIENCE)
  throw new Error("floor.ts needs its environment");

const jwks = createLocalJWKSet((await (await fetch(JWKS_URL)).json()) as JSONWebKeySet);
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const app = new Hono();

app.get("/me", async (c) => {
  const token = c.req.header("x-stack-access-token") ?? "";
  const { payload } = await jwtVerify(token, jwks, { issuer: ISSUER, audience: AUDIENCE });
  const { rows } = await pool.query({
    name: "floor_user",
    text: "select id, display_name from users where id = $1",
    values: [payload.sub],
  });
  return c.json(rows[0] ?? null);
});

serve({ fetch: app.fetch, port: Number(PORT) }, () => process.stdout.write("floor listening\n"));
process.on("SIGTERM", () => process.exit(0));
