// oidc-provider itself (about 30 MiB resident), loaded with the first project that is asked for its OP rather than
// at start: the server's idle memory is for the projects that use it.
import type * as OidcProviderModule from "oidc-provider";

let loaded: typeof OidcProviderModule | undefined;

export async function loadOidcProvider(): Promise<typeof OidcProviderModule> {
  if (!loaded) {
    await import("./runtime-notice.ts");
    loaded = await import("oidc-provider");
  }
  return loaded;
}

/** The request context oidc-provider keeps while it serves a request (its Provider.ctx); none before it is loaded. */
export function providerRequestContext() {
  return loaded?.default.ctx;
}
