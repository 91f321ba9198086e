// The JSON Web Key Set a project publishes (WIRE.md §3.2).
import { z } from "zod";

export const jwkSchema = z.object({
  kty: z.literal("EC"),
  alg: z.literal("ES256"),
  crv: z.literal("P-256"),
  kid: z.string(),
  x: z.string(),
  y: z.string(),
});

export const jwksSchema = z.object({ keys: z.array(jwkSchema) }).meta({ id: "JWKS" });

export type PublicJwk = z.output<typeof jwkSchema>;
