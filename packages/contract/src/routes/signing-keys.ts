// [GO] The project's ES256 token signing keys (issue 23): listed with their state, and rotated. A rotation publishes
// a new key per audience at once, which signs only after verifiers' JWKS cache time (an hour); the key it replaces
// stays published and verifying until no unexpired token can carry it, and leaves at the first rotation after that.
import { z } from "zod";
import { defineRoute } from "../route.ts";

export const signingKeySchema = z.object({
  kid: z.string(),
  audience: z.enum(["default", "restricted", "anonymous"]),
  /** `pending`: published, not signing yet; `current`: signs new tokens; `previous`: superseded, still verifies. */
  state: z.enum(["pending", "current", "previous"]),
  created_at_millis: z.number(),
  signs_from_millis: z.number(),
});
export type SigningKeyView = z.output<typeof signingKeySchema>;

const keysAnswer = z.object({ items: z.array(signingKeySchema) });
const TAG = "Signing keys";

export const listSigningKeysRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/signing-keys",
  access: ["admin"],
  summary: "[GO] The project's published signing keys (retired ones are gone), oldest first",
  tag: TAG,
  response: { status: 200, kind: "json", schema: keysAnswer },
});

export const rotateSigningKeysRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/signing-keys/rotate",
  access: ["admin"],
  summary:
    "[GO] Publishes a new key per audience (signing after the JWKS cache time) and retires keys superseded for longer than an access-token lifetime; answers the published keys",
  tag: TAG,
  response: { status: 200, kind: "json", schema: keysAnswer },
});

export const serverStatusRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/server-status",
  access: ["admin"],
  summary:
    "[GO] The server's version and its database migrations: applied, known to this build, and the names of pending ones",
  tag: "Server status",
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      version: z.string(),
      migrations: z.object({
        applied: z.number(),
        known: z.number(),
        latest_applied: z.string().nullable(),
        pending: z.array(z.string()),
      }),
    }),
  },
});
export const signingKeyRoutes = [listSigningKeysRoute, rotateSigningKeysRoute, serverStatusRoute] as const;
