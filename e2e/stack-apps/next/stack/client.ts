// stack/client.ts as init-stack writes it: the environment variables are read by Stack itself.
import { StackClientApp } from "@stackframe/stack";

export const stackClientApp = new StackClientApp({
  tokenStore: "nextjs-cookie",
});
