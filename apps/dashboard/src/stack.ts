// The dashboard is an app of the internal project, on the server that serves it: operators sign in with the handler
// pages under /dashboard/handler, and manage projects through admin apps that act with their session.
import { StackAdminApp, StackClientApp } from "@gatehouse/react";

export const BASE = "/dashboard";

/** The server's public address: the dashboard is served by the server it talks to (callback URLs, `.env` blocks). */
export const serverUrl = () => window.location.origin;

export const stackApp = new StackClientApp({
  projectId: "internal",
  adminAppClass: StackAdminApp,
  baseUrl: serverUrl(),
  tokenStore: "cookie",
  urls: {
    handler: `${BASE}/handler`,
    home: `${BASE}/`,
    afterSignIn: `${BASE}/projects`,
    afterSignOut: `${BASE}/`,
  },
});
