// The pages' one style sheet. Everything hangs under `.gh-root`: inside it, `all: revert` undoes what the host
// app's element rules did (its `button {…}` or `input {…}`), and every rule of ours names `.gh-root`, so nothing here
// reaches the host page. Colors are custom properties per theme; `data-theme="system"` follows the browser. Inline
// SVG icons are left out of the revert: their shapes (`d`, `fill`, sizes) are CSS properties it would erase. The
// exclusion sits in `:where()`, which weighs nothing, so the revert keeps the weight of `.gh-root *` and a later
// one-class rule (ours, or the dashboard's) still wins over it.
import { POLISH_STYLES } from "./polish-styles.ts";

const DARK = `
  --gh-bg: #0f1115; --gh-surface: #171a21; --gh-fg: #e8eaed; --gh-muted: #a0a7b4; --gh-border: #343a46;
  --gh-primary: #7b93ff; --gh-primary-fg: #0b0d12; --gh-danger: #ff8a80; --gh-danger-bg: #3a1715;
  --gh-success: #6ce0a4; --gh-success-bg: #0f2e20; --gh-focus: #7b93ff80; --gh-subtle: #222631;
  --gh-warning: #fedf89; --gh-warning-bg: #4e1d09;
  color-scheme: dark;
`;

export const STYLES = `
.gh-root, .gh-root :where(*:not(svg, svg *)) { all: revert; box-sizing: border-box; }
.gh-root {
  --gh-bg: #ffffff; --gh-surface: #ffffff; --gh-fg: #111827; --gh-muted: #5b6472; --gh-border: #d4d8de;
  --gh-primary: #2f54eb; --gh-primary-fg: #ffffff; --gh-danger: #b42318; --gh-danger-bg: #fef3f2;
  --gh-success: #067647; --gh-success-bg: #ecfdf3; --gh-focus: #2f54eb66; --gh-subtle: #f3f4f6;
  --gh-warning: #7a2e0e; --gh-warning-bg: #fef0c7;
  color-scheme: light;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px; line-height: 1.5;
  color: var(--gh-fg); text-align: start;
}
.gh-root[data-theme="dark"] {
${DARK}}
@media (prefers-color-scheme: dark) {
  .gh-root[data-theme="system"] {
${DARK}  }
}
.gh-root.gh-page { min-height: 100vh; background: var(--gh-bg); display: flex; justify-content: center;
  align-items: flex-start; padding: 48px 16px; }
.gh-root .gh-card { width: 100%; max-width: 420px; background: var(--gh-surface); border: 1px solid var(--gh-border);
  border-radius: 12px; padding: 28px 24px; display: flex; flex-direction: column; gap: 16px; }
.gh-root .gh-card.gh-wide { max-width: 960px; }
.gh-root .gh-settings { display: grid; grid-template-columns: 170px minmax(0, 1fr); gap: 28px; align-items: start; }
.gh-root .gh-settings-nav { position: sticky; top: 16px; }
.gh-root .gh-settings-nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.gh-root .gh-settings-body { display: flex; flex-direction: column; gap: 16px; min-width: 0; }
.gh-root .gh-settings-body > :first-child .gh-section { border-top: none; padding-top: 0; }
.gh-root .gh-title { font-size: 22px; font-weight: 650; margin: 0; }
.gh-root .gh-subtitle { font-size: 17px; font-weight: 600; margin: 0; }
.gh-root .gh-text { margin: 0; }
.gh-root .gh-muted { color: var(--gh-muted); font-size: 14px; margin: 0; }
.gh-root .gh-stack { display: flex; flex-direction: column; gap: 12px; }
.gh-root .gh-row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.gh-root .gh-confirm { display: inline-flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 0; padding: 0;
  border: none; min-width: 0; }
.gh-root .gh-confirm > legend { float: inline-start; padding: 0; }
.gh-root .gh-spread { display: flex; gap: 8px; align-items: center; justify-content: space-between; flex-wrap: wrap; }
.gh-root .gh-field { display: flex; flex-direction: column; gap: 4px; }
.gh-root .gh-label { font-size: 14px; font-weight: 550; }
.gh-root .gh-input { font: inherit; color: var(--gh-fg); background: var(--gh-bg); border: 1px solid var(--gh-border);
  border-radius: 8px; padding: 9px 11px; width: 100%; min-width: 0; }
.gh-root .gh-input[aria-invalid="true"] { border-color: var(--gh-danger); }
.gh-root .gh-input:focus-visible, .gh-root .gh-button:focus-visible, .gh-root .gh-link:focus-visible,
.gh-root .gh-menu-item:focus-visible { outline: 3px solid var(--gh-focus); outline-offset: 1px; }
.gh-root .gh-field-error { color: var(--gh-danger); font-size: 13px; margin: 0; }
.gh-root .gh-bot-challenge { border: 0; padding: 0; margin: 0; min-width: 0; }
.gh-root .gh-button { font: inherit; font-weight: 550; cursor: pointer; border-radius: 8px; padding: 9px 14px;
  border: 1px solid var(--gh-border); background: var(--gh-surface); color: var(--gh-fg); display: inline-flex;
  align-items: center; justify-content: center; gap: 8px; text-decoration: none; }
.gh-root .gh-button:hover { background: var(--gh-subtle); }
.gh-root .gh-button.gh-primary { background: var(--gh-primary); border-color: var(--gh-primary); color: var(--gh-primary-fg); }
.gh-root .gh-button.gh-primary:hover { filter: brightness(1.08); }
.gh-root .gh-button.gh-danger { color: var(--gh-danger); border-color: var(--gh-danger); }
.gh-root .gh-button.gh-full { width: 100%; }
.gh-root .gh-button:disabled, .gh-root .gh-button[aria-disabled="true"] { opacity: 0.6; cursor: default; }
.gh-root .gh-link { color: var(--gh-primary); background: none; border: none; padding: 0; font: inherit;
  cursor: pointer; text-decoration: underline; text-underline-offset: 2px; }
.gh-root .gh-alert { border-radius: 8px; padding: 10px 12px; margin: 0; font-size: 14px; }
.gh-root .gh-alert.gh-error { background: var(--gh-danger-bg); color: var(--gh-danger); }
.gh-root .gh-alert.gh-success { background: var(--gh-success-bg); color: var(--gh-success); }
.gh-root .gh-alert.gh-info { background: var(--gh-subtle); color: var(--gh-fg); }
.gh-root .gh-divider { display: flex; align-items: center; gap: 12px; color: var(--gh-muted); font-size: 13px; }
.gh-root .gh-divider::before, .gh-root .gh-divider::after { content: ""; flex: 1; border-top: 1px solid var(--gh-border); }
.gh-root .gh-spinner { width: 14px; height: 14px; border-radius: 50%; border: 2px solid currentColor;
  border-right-color: transparent; display: inline-block; animation: gh-spin 0.8s linear infinite; }
@keyframes gh-spin { to { transform: rotate(360deg); } }
.gh-root .gh-section { border-top: 1px solid var(--gh-border); padding-top: 16px; display: flex; flex-direction: column; gap: 12px; }
.gh-root .gh-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.gh-root .gh-list-item { display: flex; gap: 8px; align-items: center; justify-content: space-between; flex-wrap: wrap;
  border: 1px solid var(--gh-border); border-radius: 8px; padding: 8px 12px; }
.gh-root .gh-badge { font-size: 12px; border-radius: 999px; padding: 1px 8px; background: var(--gh-subtle); color: var(--gh-muted); }
.gh-root .gh-avatar { width: 32px; height: 32px; border-radius: 50%; background: var(--gh-subtle); color: var(--gh-fg);
  display: inline-flex; align-items: center; justify-content: center; font-weight: 600; font-size: 14px; overflow: hidden; flex: none; }
.gh-root .gh-avatar img { width: 100%; height: 100%; object-fit: cover; }
/* The app's logo on the OpenID Provider consent page: its own size, whatever the image's (a card's column stretches). */
.gh-root .gh-oidc-logo { width: 48px; height: 48px; object-fit: contain; align-self: flex-start; }
/* A connected app: its logo beside its name and scopes, however long the list of scopes. */
.gh-root .gh-app-row { flex-wrap: nowrap; align-items: flex-start; }
.gh-root .gh-app-row > .gh-stack { gap: 4px; min-width: 0; }
.gh-root .gh-menu { position: relative; display: inline-block; }
.gh-root .gh-menu-list { position: absolute; inset-inline-end: 0; top: calc(100% + 6px); min-width: 220px; z-index: 1000;
  background: var(--gh-surface); border: 1px solid var(--gh-border); border-radius: 10px; padding: 6px;
  list-style: none; margin: 0; box-shadow: 0 8px 24px #0000002e; }
.gh-root .gh-menu-item { display: block; width: 100%; text-align: start; font: inherit; color: var(--gh-fg);
  background: none; border: none; border-radius: 6px; padding: 8px 10px; cursor: pointer; }
.gh-root .gh-menu-item:hover, .gh-root .gh-menu-item[aria-current="true"] { background: var(--gh-subtle); }
.gh-root .gh-code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; }
.gh-root .gh-qr { width: 200px; height: 200px; background: #ffffff; padding: 8px; border-radius: 8px; }
.gh-root .gh-qr svg { width: 100%; height: 100%; display: block; }
@media (max-width: 720px) {
  .gh-root .gh-settings { grid-template-columns: minmax(0, 1fr); gap: 16px; }
  .gh-root .gh-settings-nav { position: static; }
  .gh-root .gh-settings-nav ul { flex-direction: row; flex-wrap: wrap; gap: 6px 14px; }
}
@media (max-width: 480px) {
  .gh-root.gh-page { padding: 16px 8px; }
  .gh-root .gh-card { padding: 20px 16px; }
}
/* the impersonation banner: across the top of the page, staying in view */
.gh-root .gh-impersonation { position: sticky; top: 0; z-index: 1001; display: flex; flex-wrap: wrap; gap: 8px 12px;
  align-items: center; justify-content: center; padding: 8px 16px; background: var(--gh-warning-bg);
  color: var(--gh-warning); border-bottom: 1px solid var(--gh-warning); font-weight: 550; overflow-wrap: anywhere; }
.gh-root .gh-impersonation .gh-button { padding: 4px 12px; }
/* components: user button and team switcher (menu header, name and e-mail) */
.gh-root .gh-identity { display: flex; flex-direction: column; min-width: 0; max-width: min(280px, calc(100vw - 48px)); line-height: 1.3; }
.gh-root .gh-identity > * { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.gh-root .gh-menu-header { padding: 8px 10px 10px; margin-bottom: 4px; border-bottom: 1px solid var(--gh-border); }
${POLISH_STYLES}`;
