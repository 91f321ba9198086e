// Field schemas shared by many resources (WIRE.md §1.6 general field rules).
import { z } from "zod";

/** Query booleans are the strings `true` and `false`. */
export const queryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

/** A user id in path, query or body: a uuid, or `me` for the user of the access token (the server resolves it). */
export const userIdOrMe = z.union([z.literal("me"), z.uuid()]);

/** `{"success": true}`, the body of deletes and other acknowledgements. */
export const successSchema = z.object({ success: z.literal(true) });

/** The body of every known error (WIRE.md §1.7). */
export const knownErrorBodySchema = z
  .object({
    code: z.string(),
    message: z.string(),
    error: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "KnownError" });

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), is_paginated: z.literal(false) });
