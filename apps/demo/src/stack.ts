// The demo's one Gatehouse app: the session lives in cookies, so a reload stays signed in.
import { StackClientApp } from "@gatehouse/react";

export const stackApp = new StackClientApp({
  baseUrl: __GATEHOUSE__.gatehouseUrl,
  projectId: __GATEHOUSE__.projectId,
  publishableClientKey: __GATEHOUSE__.publishableClientKey,
  tokenStore: "cookie",
});
