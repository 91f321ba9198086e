// oidc-provider 9 prints "Unsupported runtime. Use Node.js v22.x LTS" when it loads on Node 20. Gatehouse supports
// Node >= 20.19, and the provider's whole flow is tested on it (oidc-provider.test.ts, the Chromium suite), so that
// one line would only alarm operators. Imported for its effect before oidc-provider: on a runtime the package warns
// about, the next console.warn carrying exactly that notice is dropped, once; every other line passes untouched.
const NOTICE = "oidc-provider WARNING: Unsupported runtime.";
const lts = globalThis.process?.release?.lts;

if (typeof lts !== "string" || lts < "Jod") {
  const warn = console.warn;
  console.warn = function quietOnce(...args: unknown[]) {
    if (typeof args[0] === "string" && args[0].includes(NOTICE)) {
      console.warn = warn;
      return;
    }
    warn.apply(console, args);
  };
}
