// Convex integration (Stack's getConvexClientAuth / getConvexHttpClientAuth): Convex asks the app for the user's
// access token, which Convex's backend then verifies against this server's JWKS.
import type { Session } from "./session.ts";
import type { TokenStoreInit } from "./token-store.ts";

export function convexAuthCalls(sessionOf: (tokenStore?: TokenStoreInit) => Session | null) {
  return {
    /** For `ConvexReactClient.setAuth`: the access token, a new one when Convex says the last was refused. */
    getConvexClientAuth(options: { tokenStore?: TokenStoreInit } = {}) {
      return async (args: { forceRefreshToken: boolean }): Promise<string | null> => {
        const session = sessionOf(options.tokenStore);
        if (!session) return null;
        if (args.forceRefreshToken) {
          const current = await session.getAccessToken();
          if (current) session.markAccessTokenExpired(current);
        }
        return session.getAccessToken();
      };
    },
    /** For `ConvexHttpClient.setAuth`: the access token, or "" when nobody is signed in. */
    async getConvexHttpClientAuth(options: { tokenStore?: TokenStoreInit } = {}): Promise<string> {
      return (await sessionOf(options.tokenStore)?.getAccessToken()) ?? "";
    },
  };
}
