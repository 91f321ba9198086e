// Routes that send and use e-mailed codes: password reset, one-time sign-in codes and e-mail verification
// (WIRE.md §4.1, §4.2, §4.9, §5).
import { z } from "zod";
import { defineRoute } from "../route.ts";
import {
  botChallengeFields,
  emailSchema,
  passwordSchema,
  signInWithNewUserResponseSchema,
  urlSchema,
} from "../schemas/auth.ts";
import { successSchema } from "../schemas/common.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
/** Codes are 45 characters; input is lower-cased (WIRE.md §1.6). */
export const codeSchema = z
  .string()
  .length(45)
  .transform((c) => c.toLowerCase());
const codeBody = z.strictObject({ code: codeSchema });
const validCode = z.object({ is_code_valid: z.literal(true) });

export const sendResetCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/password/send-reset-code",
  access: ANY_ACCESS,
  summary: "E-mails a password reset link, if a user with a password signs in with this address",
  tag: "Auth: password",
  body: z.strictObject({ email: emailSchema, callback_url: urlSchema }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ success: z.literal("maybe, only if user with e-mail exists") }),
  },
});

export const checkResetCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/password/reset/check-code",
  access: ANY_ACCESS,
  summary: "Checks a password reset code without using it",
  tag: "Auth: password",
  body: codeBody,
  response: { status: 200, kind: "json", schema: validCode },
});

export const resetPasswordRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/password/reset",
  access: ANY_ACCESS,
  summary: "Sets a new password with a reset code and ends every session of the user",
  tag: "Auth: password",
  body: z.strictObject({ code: codeSchema, password: passwordSchema }),
  response: { status: 200, kind: "json", schema: successSchema },
});

export const sendSignInCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/otp/send-sign-in-code",
  access: ANY_ACCESS,
  summary: "E-mails a one-time sign-in code and magic link; returns the nonce the code ends with",
  tag: "Auth: one-time code",
  body: z.strictObject({ email: emailSchema, callback_url: urlSchema, ...botChallengeFields }),
  response: { status: 200, kind: "json", schema: z.object({ nonce: z.string() }) },
});

export const otpSignInRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/otp/sign-in",
  access: ANY_ACCESS,
  summary:
    "Signs in (or up) with a one-time code: the magic link's code, or the 6 OTP characters plus the nonce",
  tag: "Auth: one-time code",
  body: codeBody,
  response: { status: 200, kind: "json", schema: signInWithNewUserResponseSchema },
});

export const checkSignInCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/otp/sign-in/check-code",
  access: ANY_ACCESS,
  summary: "Checks a sign-in code without using it",
  tag: "Auth: one-time code",
  body: codeBody,
  response: { status: 200, kind: "json", schema: validCode },
});

export const verifyEmailRoute = defineRoute({
  method: "POST",
  path: "/api/v1/contact-channels/verify",
  access: ANY_ACCESS,
  summary: "Marks an e-mail address verified with the code of its verification link",
  tag: "Contact channels",
  body: codeBody,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const checkVerifyEmailCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/contact-channels/verify/check-code",
  access: ANY_ACCESS,
  summary: "Checks an e-mail verification code without using it",
  tag: "Contact channels",
  body: codeBody,
  response: { status: 200, kind: "json", schema: validCode },
});

export const sendPrimaryVerificationCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/contact-channels/send-verification-code",
  access: ANY_ACCESS,
  user: "required",
  summary: "Deprecated: e-mails a verification link for the user's primary e-mail",
  tag: "Contact channels",
  body: z.strictObject({ email: emailSchema, callback_url: urlSchema }),
  response: { status: 200, kind: "json", schema: successSchema },
});

export const listEmailsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/emails",
  access: ["admin"],
  summary: "The project's e-mail outbox, newest first (the development inbox when no SMTP server is set)",
  tag: "E-mails",
  query: z.strictObject({
    to: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      is_paginated: z.literal(false),
      items: z.array(
        z.object({
          id: z.uuid(),
          to: z.string(),
          subject: z.string(),
          text: z.string().nullable(),
          html: z.string().nullable(),
          template_type: z.string(),
          // `paused` and `skipped`: e-mails apps send through /emails/send-email (routes/emails.ts).
          status: z.enum(["queued", "sent", "failed", "kept", "paused", "skipped"]),
          attempts: z.number(),
          created_at_millis: z.number(),
          sent_at_millis: z.number().nullable(),
          last_error: z.string().nullable(),
        }),
      ),
    }),
  },
});
