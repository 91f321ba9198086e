/** @jsxRuntime automatic @jsxImportSource react */
// The page at `/`: which Gatehouse this is, and the ways in (dashboard, API reference, health, the README), so an
// operator who opens the server's address finds where to go instead of "Not found.".
import { contentSecurityPolicy, inlineStyleSources, renderDocument } from "../http/html.ts";

type Place = { href: string; title: string; about: string };

const PLACES: Place[] = [
  { href: "/dashboard/", title: "Dashboard", about: "Projects, users, teams, e-mails, keys and settings." },
  { href: "/api/v1/docs", title: "API reference", about: "Every endpoint, with requests you can try." },
  { href: "/api/v1/openapi.json", title: "OpenAPI document", about: "The API as JSON, for code generators." },
  {
    href: "/health?db=1",
    title: "Health",
    about: "Liveness, with a database ping (/health alone skips it).",
  },
];

function LandingPage({ baseUrl }: { baseUrl: string }) {
  const host = new URL(baseUrl).host;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`Gatehouse · ${host}`}</title>
        <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <header>
            <img src="/favicon.svg" alt="" width="48" height="48" />
            <div>
              <h1>Gatehouse</h1>
              <p className="instance">{baseUrl}</p>
            </div>
          </header>
          <p className="lead">
            Self-hosted authentication and user management, speaking Stack Auth&apos;s protocol: point the
            Stack SDK at <code>{baseUrl}</code>.
          </p>
          <ul className="places">
            {PLACES.map((place) => (
              <li key={place.href}>
                <a href={place.href}>
                  <span className="title">{place.title}</span>
                  <span className="about">{place.about}</span>
                </a>
              </li>
            ))}
          </ul>
          <p className="docs">
            Setting up, the SDK and every configuration variable are described in <code>README.md</code> at
            the root of the Gatehouse repository.
          </p>
        </main>
      </body>
    </html>
  );
}

/** The page and its policy: its own style (by hash) and its icon, nothing else; no scripts, no forms, no framing. */
export async function renderLandingPage(baseUrl: string): Promise<{ html: string; csp: string }> {
  const html = await renderDocument(<LandingPage baseUrl={baseUrl} />);
  return {
    html,
    csp: contentSecurityPolicy({
      "default-src": "'none'",
      "style-src": inlineStyleSources(html),
      "img-src": "'self'",
    }),
  };
}

const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7fb; --card: #fff; --text: #1c2430; --muted: #566275;
  --border: #dde3ea; --accent: #2f54eb; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #11151c; --card: #1a2029; --text: #e6eaf0; --muted: #a3adbb; --border: #2c3542; --accent: #8ea6ff; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, sans-serif; }
main { max-width: 720px; margin: 0 auto; padding: 48px 20px; }
header { display: flex; align-items: center; gap: 16px; }
h1 { margin: 0; font-size: 28px; }
.instance { margin: 0; color: var(--muted); overflow-wrap: anywhere; }
.lead { margin: 24px 0; }
code { font: 14px ui-monospace, monospace; overflow-wrap: anywhere; }
.places { list-style: none; padding: 0; margin: 0; display: grid; gap: 12px;
  grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); }
.places a { display: block; height: 100%; padding: 16px; border: 1px solid var(--border); border-radius: 10px;
  background: var(--card); color: inherit; text-decoration: none; }
.places a:hover, .places a:focus-visible { border-color: var(--accent); }
.places a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.title { display: block; font-weight: 600; color: var(--accent); }
.about { display: block; color: var(--muted); font-size: 14px; margin-top: 4px; }
.docs { margin-top: 28px; color: var(--muted); font-size: 14px; }
`;
