// Stack Auth's ids for the built-in e-mail templates and theme, mapped to our five template types, so apps that name
// a template by Stack's id (send-email, render-email, `/internal/email-templates`) reach ours.
import { EMAIL_TEMPLATE_TYPES, type EmailTemplateType, KnownErrors } from "@gatehouse/contract";

/** Stack's DEFAULT_TEMPLATE_IDS (stack-shared helpers/emails) for the types we have. */
export const STACK_TEMPLATE_IDS: Record<EmailTemplateType, string> = {
  email_verification: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
  password_reset: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  magic_link: "822687fe-8d0a-4467-a0d1-416b6e639478",
  team_invitation: "e84de395-2076-4831-9c19-8e9a96a868e4",
  sign_in_invitation: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
  // [GO] Ours alone (Stack has no new-device template): a fixed id of our own, so apps can name it as they name others.
  new_device_notice: "5f0c1e52-3d7a-4b8e-9a61-6e2f4d8c7b10",
};

/** Stack's display names of those templates. */
export const STACK_TEMPLATE_NAMES: Record<EmailTemplateType, string> = {
  email_verification: "Email Verification",
  password_reset: "Password Reset",
  magic_link: "Magic Link/OTP",
  team_invitation: "Team Invitation",
  sign_in_invitation: "Sign In Invitation",
  new_device_notice: "New Device Sign-In",
};

/** Our one built-in look, under Stack's default theme id so apps that name the default get it. */
export const DEFAULT_THEME = {
  id: "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac",
  displayName: "Default Light",
} as const;

export function templateTypeOfStackId(id: string): EmailTemplateType | undefined {
  return EMAIL_TEMPLATE_TYPES.find((type) => STACK_TEMPLATE_IDS[type] === id);
}

/** Why every TSX write fails: the server renders its own template language and never runs submitted code. */
export const TSX_UNSUPPORTED =
  "Gatehouse does not run TSX e-mail sources (it never executes submitted code). Edit the five templates with " +
  "PATCH /api/v1/email-templates/{type} (subject and HTML with {{ variable }} placeholders), or send HTML with " +
  "POST /api/v1/emails/send-email.";

export const tsxUnsupported = () => KnownErrors.EMAIL_RENDERING_ERROR({ error: TSX_UNSUPPORTED });
