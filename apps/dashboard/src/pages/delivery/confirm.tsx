// Shared bricks of the e-mail, API key and webhook screens: an HTML body shown in a sandbox (no scripts, no
// same-origin access), and date texts.

/** An e-mail's or a preview's HTML in a sandboxed frame: it cannot run scripts or reach the dashboard. */
export function HtmlFrame({ html, title }: { html: string; title: string }) {
  return <iframe className="dash-html-frame" sandbox="" srcDoc={html} title={title} />;
}

export const dateTime = (date: Date | null) =>
  date ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—";
