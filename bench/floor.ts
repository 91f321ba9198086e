// The floors for the benchmark: bare Hono endpoints, each doing the least its operation must do, with nothing else.
// - GET /me, the floor issue 24's goals are set against: verify the same ES256 access token against the project's
//   JWKS and read one row by primary key.
// - GET /me-wire: the same, but reading what the wire's user object is made of (Stack's `/users/me`: the session
//   must be live, and the user comes with its primary e-mail, selected team, linked accounts and passkey flag), in
//   one statement on Gatehouse's tables. The project and key are taken as known: a server could hold them in memory.
// - POST /sign-in: read the address's password hash, verify it (argon2id, Gatehouse's parameters), insert the
//   session, sign the access token. POST /sign-up: hash, insert the user, its e-mail and its session in one
//   statement, sign. Both on Gatehouse's tables (their indexes and triggers included), with no checks besides the
//   password's: no rate limit, no audit entry, no restriction or MFA, no webhook event, no team.
// They tell what part of a gap to the first floor, or to the raw hash rate, is the operation's own work.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { ARGON2_PARAMS } from "@gatehouse/server/crypto/password";
import { serve } from "@hono/node-server";
import { hash, verify } from "@node-rs/argon2";
import { Hono } from "hono";
import { createLocalJWKSet, generateKeyPair, type JSONWebKeySet, jwtVerify, SignJWT } from "jose";
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

app.get("/me-wire", async (c) => {
  const token = c.req.header("x-stack-access-token") ?? "";
  const { payload } = await jwtVerify(token, jwks, { issuer: ISSUER, audience: AUDIENCE });
  const { rows } = await pool.query({
    name: "floor_me_wire",
    text: `select u.id, u.display_name, u.profile_image_url, u.client_metadata, u.client_read_only_metadata,
        u.password_hash is not null as has_password, u.otp_auth_enabled, u.sealed_totp_secret is not null as totp,
        u.is_anonymous, u.restricted_by_admin, u.restricted_by_admin_reason, u.selected_team_id, u.signed_up_at,
        e.value as primary_email, e.is_verified, e.used_for_auth,
        t.display_name as team_name, t.profile_image_url as team_image, t.client_metadata as team_metadata,
        t.client_read_only_metadata as team_read_only_metadata, t.created_at as team_created_at,
        (select json_agg(json_build_object('id', o.provider_id, 'account_id', o.account_id, 'email', o.email)
          order by o.created_at) from oauth_accounts o where o.user_id = u.id) as oauth_providers,
        exists (select 1 from passkeys k where k.user_id = u.id) as has_passkey
      from sessions s join users u on u.id = s.user_id
      left join contact_channels e on e.user_id = u.id and e.is_primary and e.type = 'email'
      left join teams t on t.id = u.selected_team_id
      where s.id = $1 and s.project_id = $2 and s.expires_at > now()`,
    values: [String(payload.refresh_token_id), AUDIENCE],
  });
  return c.json(rows[0] ?? null);
});

const signingKey = (await generateKeyPair("ES256")).privateKey;
const SESSION_MS = 365 * 24 * 3600 * 1000;

/** A refresh token and its hash, and the access token naming the session. */
async function tokens(userId: string) {
  const sessionId = randomUUID();
  const refresh = randomBytes(32).toString("base64url");
  const access = await new SignJWT({ refresh_token_id: sessionId })
    .setProtectedHeader({ alg: "ES256" })
    .setSubject(userId)
    .setIssuer(ISSUER as string)
    .setAudience(AUDIENCE as string)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(signingKey);
  const refreshHash = createHash("sha256").update(refresh).digest("hex");
  return { sessionId, refresh, refreshHash, access };
}

app.post("/sign-in", async (c) => {
  const { email, password } = await c.req.json<{ email: string; password: string }>();
  const { rows } = await pool.query<{ id: string; password_hash: string }>({
    name: "floor_sign_in_user",
    text: `select u.id, u.password_hash from contact_channels e join users u on u.id = e.user_id
      where e.project_id = $1 and e.type = 'email' and e.normalized = $2 and e.used_for_auth`,
    values: [AUDIENCE, email.toLowerCase()],
  });
  const user = rows[0];
  if (!user || !(await verify(user.password_hash, password))) return c.json({ error: "wrong" }, 400);
  const t = await tokens(user.id);
  const now = new Date();
  await pool.query({
    name: "floor_sign_in_session",
    text: `insert into sessions (id, project_id, user_id, refresh_token_hash, created_at, last_used_at, expires_at)
      values ($1, $2, $3, $4, $5, $5, $6)`,
    values: [t.sessionId, AUDIENCE, user.id, t.refreshHash, now, new Date(now.getTime() + SESSION_MS)],
  });
  return c.json({ access_token: t.access, refresh_token: t.refresh, user_id: user.id });
});

app.post("/sign-up", async (c) => {
  const { email, password } = await c.req.json<{ email: string; password: string }>();
  const passwordHash = await hash(password, ARGON2_PARAMS);
  const userId = randomUUID();
  const t = await tokens(userId);
  const now = new Date();
  await pool.query({
    name: "floor_sign_up",
    text: `with u as (insert into users (id, project_id, password_hash, signed_up_at, last_active_at)
        values ($1, $2, $3, $4, $4) returning id),
      e as (insert into contact_channels (id, project_id, user_id, value, normalized, is_primary, used_for_auth,
          created_at)
        select $5, $2, id, $6, lower($6), true, true, $4 from u)
      insert into sessions (id, project_id, user_id, refresh_token_hash, created_at, last_used_at, expires_at)
        select $7, $2, id, $8, $4, $4, $9 from u`,
    values: [
      userId,
      AUDIENCE,
      passwordHash,
      now,
      randomUUID(),
      email,
      t.sessionId,
      t.refreshHash,
      new Date(now.getTime() + SESSION_MS),
    ],
  });
  return c.json({ access_token: t.access, refresh_token: t.refresh, user_id: userId });
});

serve({ fetch: app.fetch, port: Number(PORT) }, () => process.stdout.write("floor listening\n"));
process.on("SIGTERM", () => process.exit(0));
