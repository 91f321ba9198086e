// Template rendering: the placeholder syntax of WIRE.md §5.2, escaping rules, and the plain-text part.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_EMAIL_TEMPLATES,
  EMAIL_TEMPLATE_TYPES,
  EMAIL_TEMPLATE_VARIABLES,
  htmlToText,
  listDefaultEmailTemplates,
  renderTemplate,
} from "./templates.ts";

const render = (content: string, variables: Record<string, string | undefined>, subject = "") =>
  renderTemplate({ subject, content }, variables);

describe("placeholder syntax", () => {
  it("substitutes names with and without spaces", () => {
    const { html } = render("{{name}}|{{ name }}|{{   name  }}|{{ n2Ab }}", { name: "A", n2Ab: "B" });
    expect(html).toBe("A|A|A|B");
  });

  it("leaves malformed placeholders as written", () => {
    const content = "{{ 1a }} {{x} {x}} {{ a-b }} {{ a b }} {{}} {{\tname}} { { name } }";
    expect(render(content, { name: "N", x: "X", a: "A", "1a": "bad" }).html).toBe(content);
  });

  it("renders a missing variable as an empty string", () => {
    expect(render("[{{ missing }}]", {}).html).toBe("[]");
    expect(render("[{{ constructor }}]", {}).html).toBe("[]");
    expect(render("[{{ gone }}]", { gone: undefined }).html).toBe("[]");
  });

  it("does not re-expand placeholders that arrive inside values", () => {
    expect(render("{{ a }}", { a: "{{ b }}", b: "no" }).html).toBe("{{ b }}");
  });
});

describe("escaping", () => {
  it("HTML-escapes values in content", () => {
    const { html } = render('<a title="{{ v }}">{{ v }}</a>', { v: `<b>&"x'` });
    expect(html).toBe('<a title="&lt;b&gt;&amp;&quot;x&#39;">&lt;b&gt;&amp;&quot;x&#39;</a>');
  });

  it("inserts values into the subject as plain text without line breaks", () => {
    const { subject } = render("", { v: `<b>&"x'\r\nBcc: evil@example.com\nok` }, "Hi {{ v }}!");
    expect(subject).toBe(`Hi <b>&"x'Bcc: evil@example.comok!`);
  });
});

describe("plain-text part", () => {
  it("keeps link URLs readable and decodes entities", () => {
    const text = htmlToText(
      '<p>Hello &amp; welcome</p><p><a href="https://x.test/a?b=1&amp;c=2" style="x">Click</a></p>' +
        '<p><a href="https://y.test/">https://y.test/</a></p><p>1 &lt; 2</p>',
    );
    expect(text).toBe("Hello & welcome\n\nClick (https://x.test/a?b=1&c=2)\n\nhttps://y.test/\n\n1 < 2");
  });

  it("does not turn escaped text into markup", () => {
    expect(htmlToText("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>")).toBe("<script>alert(1)</script>");
  });

  it("collapses whitespace and drops style blocks", () => {
    expect(htmlToText("<style>p{}</style><div>\n  a\n   b  </div><br><div>c</div>")).toBe("a b\n\nc");
  });
});

describe("default templates", () => {
  it("have the subjects of §5.2", () => {
    expect(DEFAULT_EMAIL_TEMPLATES.email_verification.subject).toBe(
      "Verify your email at {{ projectDisplayName }}",
    );
    expect(DEFAULT_EMAIL_TEMPLATES.password_reset.subject).toBe(
      "Reset your password at {{ projectDisplayName }}",
    );
    expect(DEFAULT_EMAIL_TEMPLATES.magic_link.subject).toBe(
      "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
    );
    expect(DEFAULT_EMAIL_TEMPLATES.team_invitation.subject).toBe(
      "You have been invited to join {{ teamDisplayName }}",
    );
    expect(DEFAULT_EMAIL_TEMPLATES.sign_in_invitation.subject).toBe(
      "You have been invited to sign in to {{ projectDisplayName }}",
    );
    expect(listDefaultEmailTemplates().map((t) => [t.type, t.is_default])).toEqual(
      EMAIL_TEMPLATE_TYPES.map((type) => [type, true]),
    );
  });

  it("render the link as a button and as text, in HTML and in the text part", () => {
    // The new-device notice has no link: it tells of a sign-in, it asks nothing to be followed.
    for (const type of EMAIL_TEMPLATE_TYPES.filter((t) => t !== "new_device_notice")) {
      const linkVariable = EMAIL_TEMPLATE_VARIABLES[type].find((name) => /Link$/.test(name));
      expect(linkVariable, type).toBeDefined();
      const link = "https://app.test/handler?code=abc&x=1";
      const variables = Object.fromEntries(EMAIL_TEMPLATE_VARIABLES[type].map((name) => [name, `<${name}>`]));
      const out = renderTemplate(DEFAULT_EMAIL_TEMPLATES[type], { ...variables, [linkVariable!]: link });
      expect(out.html.split('href="https://app.test/handler?code=abc&amp;x=1"').length - 1, type).toBe(2);
      expect(out.html).toContain(">https://app.test/handler?code=abc&amp;x=1</a>");
      expect(out.text).toContain(link);
      expect(out.html).not.toContain("{{");
      expect(out.html).not.toMatch(/<(projectDisplayName|teamDisplayName)>/);
    }
  });

  it("show the OTP in the magic-link e-mail", () => {
    const out = renderTemplate(DEFAULT_EMAIL_TEMPLATES.magic_link, {
      projectDisplayName: "Acme",
      magicLink: "https://app.test/m?code=x",
      otp: "AB12CD",
    });
    expect(out.subject).toBe("Sign in to Acme: Your code is AB12CD");
    expect(out.html).toMatch(/font-size: 32px[^>]*>AB12CD</);
    expect(out.text).toContain("AB12CD");
  });
});
