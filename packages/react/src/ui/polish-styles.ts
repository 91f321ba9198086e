// The style rules of the pages' comforts (show-password toggle, provider marks, the project's name on the card, the
// account settings' sections), appended to the one style sheet. Same conventions as styles.ts: everything under
// `.gh-root`, colours from the theme's custom properties.
export const POLISH_STYLES = `
.gh-root .gh-password { position: relative; display: flex; }
.gh-root .gh-password .gh-input { padding-right: 44px; }
.gh-root .gh-password-toggle { position: absolute; right: 4px; top: 50%; transform: translateY(-50%);
  display: inline-flex; align-items: center; justify-content: center; width: 34px; height: 34px; padding: 0;
  border: none; border-radius: 6px; background: none; color: var(--gh-muted); cursor: pointer; }
.gh-root .gh-password-toggle:hover { color: var(--gh-fg); background: var(--gh-subtle); }
.gh-root .gh-password-toggle:focus-visible { outline: 3px solid var(--gh-focus); outline-offset: 0; }
.gh-root .gh-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.gh-root .gh-avatar-picker { align-items: flex-start; flex-wrap: wrap; gap: 16px; margin-top: 12px; }
.gh-root .gh-provider-icon { flex: none; display: block; }
.gh-root .gh-brand { display: flex; align-items: center; justify-content: center; gap: 10px; margin: 0 0 4px;
  color: var(--gh-muted); font-size: 14px; font-weight: 550; }
.gh-root .gh-brand img { height: 28px; width: auto; max-width: 160px; }
.gh-root .gh-brand .gh-logo-dark, .gh-root[data-theme="dark"] .gh-brand .gh-logo-light { display: none; }
.gh-root[data-theme="dark"] .gh-brand .gh-logo-dark { display: block; }
@media (prefers-color-scheme: dark) {
  .gh-root[data-theme="system"] .gh-brand .gh-logo-light { display: none; }
  .gh-root[data-theme="system"] .gh-brand .gh-logo-dark { display: block; }
}
.gh-root .gh-card-top { display: flex; justify-content: space-between; align-items: center; gap: 12px; margin-bottom: 8px; }
.gh-root .gh-settings-nav a[aria-current="page"] { font-weight: 650; color: var(--gh-fg); text-decoration: none;
  border-left: 3px solid var(--gh-primary); padding-left: 8px; margin-left: -11px; }
.gh-root .gh-settings-nav a { display: block; padding: 4px 0; text-decoration: none; }
.gh-root .gh-settings-nav a:hover { text-decoration: underline; }
.gh-root .gh-settings-body > .gh-section { border-top: none; padding-top: 0; }
.gh-root .gh-settings-body:focus { outline: none; }
@media (max-width: 720px) {
  .gh-root .gh-settings-nav ul { flex-wrap: nowrap; overflow-x: auto; padding-bottom: 6px;
    border-bottom: 1px solid var(--gh-border); }
  .gh-root .gh-settings-nav a { white-space: nowrap; padding: 6px 2px; }
  .gh-root .gh-settings-nav a[aria-current="page"] { border-left: none; margin-left: 0; padding-left: 2px;
    border-bottom: 3px solid var(--gh-primary); }
}
`;
