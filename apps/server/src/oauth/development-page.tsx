/** @jsxRuntime automatic @jsxImportSource react */
// The development provider's sign-in page: stands in for GitHub's (or Google's…) page when the instance has no keys
// for that provider. Static HTML rendered with React on the server: one form per test identity, one for a typed
// identity, and a way to refuse, so the "denied" path can be tried too. No scripts.
import { renderToStaticMarkup } from "react-dom/server";
import { DEVELOPMENT_IDENTITIES } from "./development-provider.ts";

export type DevelopmentPageInput = {
  providerName: string;
  state: string;
  codeChallenge: string;
  redirectUri: string;
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
.badge { display: inline-block; font-size: .75rem; padding: .1rem .5rem; border-radius: 99px; border: 1px solid var(--line); margin-bottom: .75rem; }
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
        <title>{`Sign in with ${input.providerName} (development)`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <div className="card">
            <span className="badge">Development provider</span>
            <h1>Sign in with {input.providerName}</h1>
            <p className="note">
              This project uses shared {input.providerName} keys, which Gatehouse replaces with test
              identities until you configure your own. Choose who to be.
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

export function renderDevelopmentPage(input: DevelopmentPageInput): string {
  return `<!doctype html>${renderToStaticMarkup(<Page input={input} />)}`;
}
