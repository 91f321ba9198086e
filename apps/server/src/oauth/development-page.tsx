/** @jsxRuntime automatic @jsxImportSource react */
// The development provider's sign-in page: the test stand-in shown instead of GitHub's (or Google's…) page, and it
// says so. Static HTML rendered with React on the server: one form per test identity, one for a typed identity, and
// a way to refuse, so the "denied" path can be tried too. No scripts; its policy allows only its own style.
import { contentSecurityPolicy, inlineStyleSources, renderDocument } from "../http/html.ts";
import { DEVELOPMENT_IDENTITIES } from "./development-provider.ts";

export type DevelopmentPageInput = {
  providerName: string;
  state: string;
  codeChallenge: string;
  redirectUri: string;
  /** Where the callback may send the browser on to: the app's redirect URI and error redirect URL origins. */
  appOrigins: string[];
};

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #f6f7f9; --card: #fff; --line: #d6dae0; --accent: #3451b2; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --bg: #15171a; --card: #1e2125; --line: #353a40; --accent: #8ea4ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 28rem; margin: 3rem auto; padding: 0 1rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem; }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
.note { font-size: .9rem; opacity: .8; margin: 0 0 1.25rem; }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .1rem .5rem; border-radius: 99px;
  border: 1px solid #b26a00; color: #b26a00; margin-bottom: .75rem; }
form { margin: 0 0 .6rem; }
button { width: 100%; font: inherit; padding: .6rem .9rem; border-radius: 8px; border: 1px solid var(--line);
  background: var(--card); color: var(--fg); cursor: pointer; text-align: left; }
button:hover, button:focus-visible { border-color: var(--accent); outline: 2px solid transparent; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); text-align: center; }
.email { display: block; font-size: .85rem; opacity: .75; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: .75rem; margin: 1rem 0 .6rem; }
label { display: block; font-size: .9rem; margin-bottom: .5rem; }
input { display: block; width: 100%; font: inherit; padding: .45rem .6rem; margin-top: .2rem; border-radius: 6px;
  border: 1px solid var(--line); background: var(--bg); color: var(--fg); }
.deny { background: transparent; text-align: center; }
`;

function Hidden({ input }: { input: DevelopmentPageInput }) {
  return (
    <>
      <input type="hidden" name="state" value={input.state} />
      <input type="hidden" name="code_challenge" value={input.codeChallenge} />
      <input type="hidden" name="redirect_uri" value={input.redirectUri} />
    </>
  );
}

function Page({ input }: { input: DevelopmentPageInput }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`Test sign-in standing in for ${input.providerName} (this is not ${input.providerName})`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <div className="card">
            <span className="badge">Test stand-in · not {input.providerName}</span>
            <h1>Test sign-in for {input.providerName}</h1>
            <p className="note">
              This page is Gatehouse's development provider, not {input.providerName}. The operator of this
              server turned on test identities for this project, which has no {input.providerName} keys of its
              own. Nobody checks who you are here: the e-mail address you choose arrives unverified, and it
              never signs in to an account that already uses that address. Choose who to be.
            </p>
            {DEVELOPMENT_IDENTITIES.map((identity) => (
              <form method="post" key={identity.email}>
                <Hidden input={input} />
                <input type="hidden" name="email" value={identity.email} />
                <input type="hidden" name="display_name" value={identity.displayName} />
                <button type="submit" name="action" value="allow">
                  Continue as {identity.displayName}
                  <span className="email">{identity.email}</span>
                </button>
              </form>
            ))}
            <form method="post">
              <Hidden input={input} />
              <fieldset>
                <legend>Another identity</legend>
                <label>
                  E-mail
                  <input type="email" name="email" required autoComplete="off" />
                </label>
                <label>
                  Name
                  <input type="text" name="display_name" autoComplete="off" />
                </label>
                <button type="submit" name="action" value="allow" className="primary">
                  Continue
                </button>
              </fieldset>
            </form>
            <form method="post">
              <Hidden input={input} />
              <button type="submit" name="action" value="deny" className="deny">
                Cancel (deny access)
              </button>
            </form>
          </div>
        </main>
      </body>
    </html>
  );
}

/**
 * The page and its policy. Its forms post to the page itself, whose answer redirects through this server's callback
 * on to the app: browsers check form-action along that redirect chain, so the app's origins are allowed too.
 */
export async function renderDevelopmentPage(
  input: DevelopmentPageInput,
): Promise<{ html: string; csp: string }> {
  const html = await renderDocument(<Page input={input} />);
  const csp = contentSecurityPolicy({
    "default-src": "'none'",
    "style-src": inlineStyleSources(html),
    "form-action": ["'self'", ...input.appOrigins].join(" "),
  });
  return { html, csp };
}
