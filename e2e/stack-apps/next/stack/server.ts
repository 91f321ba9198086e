// stack/server.ts as init-stack writes it: the project id, keys and API URL come from the environment
// (NEXT_PUBLIC_STACK_API_URL, NEXT_PUBLIC_STACK_PROJECT_ID, NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY,
// STACK_SECRET_SERVER_KEY).
import "server-only";
import { StackServerApp } from "@stackframe/stack";
import { stackClientApp } from "./client";

export const stackServerApp = new StackServerApp({
  inheritsFrom: stackClientApp,
});
