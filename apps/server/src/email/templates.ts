// Transactional e-mail templates (WIRE.md §5.2): the five types with their variables and default subjects, the
// default HTML contents (in every supported language, template-texts.ts), and rendering with the `{{ name }}` placeholder syntax plus the plain-text part.

import { EMAIL_TEMPLATE_TYPES, type EmailTemplateType, LINE_BREAK } from "@gatehouse/contract";
import { isRightToLeft, pickLocale, type SupportedLocale } from "@gatehouse/contract/locales";
import { NEW_DEVICE_TEXTS } from "./new-device-texts.ts";
import { EMAIL_TEXTS, type EmailTexts } from "./template-texts.ts";

// The types are wire data, so the contract holds them; they are re-exported for the server's e-mail code.
export { EMAIL_TEMPLATE_TYPES, type EmailTemplateType };

export type EmailTemplate = { subject: string; content: string };

/** The variables each template type is rendered with. */
export const EMAIL_TEMPLATE_VARIABLES: Record<EmailTemplateType, readonly string[]> = {
  email_verification: ["projectDisplayName", "userDisplayName", "emailVerificationLink"],
  password_reset: ["projectDisplayName", "userDisplayName", "passwordResetLink"],
  magic_link: ["projectDisplayName", "userDisplayName", "magicLink", "otp"],
  team_invitation: ["projectDisplayName", "userDisplayName", "teamInvitationLink", "teamDisplayName"],
  sign_in_invitation: ["projectDisplayName", "userDisplayName", "signInInvitationLink", "teamDisplayName"],
  // When (UTC), the browser and OS families, and the IP address of the sign-in from a new device.
  new_device_notice: ["projectDisplayName", "userDisplayName", "time", "browser", "os", "ip"],
};

export function isEmailTemplateType(value: string): value is EmailTemplateType {
  return (EMAIL_TEMPLATE_TYPES as readonly string[]).includes(value);
}

const BODY_STYLE =
  "font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; " +
  "color: #111827; max-width: 480px; margin: 0 auto; padding: 24px;";
const BUTTON_STYLE =
  "display: inline-block; padding: 12px 24px; background-color: #111827; color: #ffffff; " +
  "text-decoration: none; border-radius: 6px; font-weight: 600;";
const SMALL_STYLE = "font-size: 13px; color: #6b7280; word-break: break-all;";
const OTP_STYLE =
  "font-family: 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 32px; font-weight: 700; " +
  "letter-spacing: 6px; margin: 16px 0;";

/**
 * A message body: heading, lines of text, a button, and the same link as visible text for clients without buttons;
 * marked with its language and direction so mail clients lay out right-to-left languages from the right.
 */
function defaultContent(
  texts: EmailTexts,
  locale: SupportedLocale,
  message: { heading: string; line: string; button: string },
  link: string,
  extra = "",
): string {
  const dir = isRightToLeft(locale) ? "rtl" : "ltr";
  return [
    `<div lang="${locale}" dir="${dir}" style="${BODY_STYLE}">`,
    `<h1 style="font-size: 20px; margin: 0 0 16px;">${message.heading}</h1>`,
    `<p>${message.line}</p>`,
    extra,
    `<p style="margin: 24px 0;"><a href="{{ ${link} }}" style="${BUTTON_STYLE}">${message.button}</a></p>`,
    `<p style="${SMALL_STYLE}">${texts.orOpenLink} <a href="{{ ${link} }}">{{ ${link} }}</a></p>`,
    `<p style="${SMALL_STYLE}">${texts.ignore}</p>`,
    "</div>",
  ]
    .filter((part) => part !== "")
    .join("\n");
}

/** The new-device notice: what signed in, and what to do if it was not the user; no link to follow. */
function newDeviceContent(locale: SupportedLocale): string {
  const t = NEW_DEVICE_TEXTS[locale];
  const dir = isRightToLeft(locale) ? "rtl" : "ltr";
  return [
    `<div lang="${locale}" dir="${dir}" style="${BODY_STYLE}">`,
    `<h1 style="font-size: 20px; margin: 0 0 16px;">${t.subject}</h1>`,
    `<p>${t.line}</p>`,
    `<p>${t.time}: {{ time }}<br>${t.browser}: {{ browser }}<br>${t.os}: {{ os }}<br>${t.ip}: {{ ip }}</p>`,
    `<p>${t.advice}</p>`,
    "</div>",
  ].join("\n");
}

/** The built-in templates in a locale (any BCP 47 tag; one that no supported locale fits gets English). */
export function defaultEmailTemplates(lang?: string | null): Record<EmailTemplateType, EmailTemplate> {
  const locale = pickLocale([lang]);
  const texts = EMAIL_TEXTS[locale];
  const template = (
    type: Exclude<EmailTemplateType, "new_device_notice">,
    link: string,
    extra?: string,
  ): EmailTemplate => ({
    subject: texts[type].subject,
    content: defaultContent(texts, locale, texts[type], link, extra),
  });
  return {
    email_verification: template("email_verification", "emailVerificationLink"),
    password_reset: template("password_reset", "passwordResetLink"),
    magic_link: template(
      "magic_link",
      "magicLink",
      `<p style="${OTP_STYLE}">{{ otp }}</p>\n<p>${texts.magic_link.oneClick}</p>`,
    ),
    team_invitation: template("team_invitation", "teamInvitationLink"),
    sign_in_invitation: template("sign_in_invitation", "signInInvitationLink"),
    new_device_notice: { subject: NEW_DEVICE_TEXTS[locale].subject, content: newDeviceContent(locale) },
  };
}

/** The defaults every project starts with, in English; the exact HTML is not part of the contract, the subjects are. */
export const DEFAULT_EMAIL_TEMPLATES: Record<EmailTemplateType, EmailTemplate> = defaultEmailTemplates("en");

/** The defaults as the e-mail templates API lists them. */
export function listDefaultEmailTemplates(): {
  type: EmailTemplateType;
  subject: string;
  content: string;
  is_default: true;
}[] {
  return EMAIL_TEMPLATE_TYPES.map((type) => ({ type, ...DEFAULT_EMAIL_TEMPLATES[type], is_default: true }));
}

export type TemplateVariables = Record<string, string | null | undefined>;

// Only spaces around the name, and a name that starts with a letter: anything else stays literal text (§5.2).
const PLACEHOLDER = /\{\{ *([A-Za-z][A-Za-z0-9]*) *\}\}/g;
// Line breaks in a subject value would end the header line; removing them keeps one value from adding headers.
const LINE_BREAKS = new RegExp(LINE_BREAK, "g");

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** The first placeholder, subject before content, that names a variable the type does not have. */
export function unknownTemplateVariable(
  type: EmailTemplateType,
  template: Partial<EmailTemplate>,
): string | undefined {
  const known = EMAIL_TEMPLATE_VARIABLES[type];
  for (const text of [template.subject, template.content]) {
    for (const [, name] of (text ?? "").matchAll(PLACEHOLDER)) {
      if (name !== undefined && !known.includes(name)) return name;
    }
  }
  return undefined;
}

function substitute(text: string, variables: TemplateVariables, encode: (value: string) => string): string {
  // Own properties only, so a name like `constructor` is a missing variable rather than Object.prototype's.
  return text.replace(PLACEHOLDER, (_match, name: string) =>
    encode(Object.hasOwn(variables, name) ? (variables[name] ?? "") : ""),
  );
}

export function renderTemplate(
  template: EmailTemplate,
  variables: TemplateVariables,
): { subject: string; html: string; text: string } {
  const subject = substitute(template.subject, variables, (value) => value.replace(LINE_BREAKS, ""));
  // Values are escaped because they carry user input (display names) into HTML, including attribute values.
  const html = substitute(template.content, variables, escapeHtml);
  return { subject, html, text: htmlToText(html) };
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, (match, entity: string) => {
    if (entity.startsWith("#")) {
      const code =
        entity[1] === "x" || entity[1] === "X"
          ? parseInt(entity.slice(2), 16)
          : parseInt(entity.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? match;
  });
}

function stripTags(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]*>/g, "");
}

const ANCHOR = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi;

/**
 * The plain-text part: tags stripped, links kept readable as "label (url)", block ends as line breaks, basic
 * entities decoded, whitespace collapsed. Entities are decoded last so escaped text never turns into markup.
 */
export function htmlToText(html: string): string {
  const withLinks = html
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(
      ANCHOR,
      (_m, dq: string | undefined, sq: string | undefined, bare: string | undefined, inner: string) => {
        const href = (dq ?? sq ?? bare ?? "").trim();
        const label = stripTags(inner).replace(/\s+/g, " ").trim();
        if (!href || href.startsWith("#")) return label;
        if (!label || decodeEntities(label) === decodeEntities(href)) return href;
        return `${label} (${href})`;
      },
    );
  const text = stripTags(
    withLinks
      .replace(/\s+/g, " ")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/?(p|div|h[1-6]|table|tr|ul|ol|blockquote|section|header|footer)\b[^>]*>/gi, "\n\n")
      .replace(/<(li)\b[^>]*>/gi, "\n- ")
      .replace(/<hr\b[^>]*>/gi, "\n\n---\n\n"),
  );
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
