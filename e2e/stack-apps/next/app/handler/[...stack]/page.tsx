// Every Stack page under /handler, as Stack's docs write app/handler/[...stack]/page.tsx.
import { StackHandler } from "@stackframe/stack";
import { stackServerApp } from "@/stack/server";

export default function Handler(props: unknown) {
  return <StackHandler fullPage app={stackServerApp} routeProps={props} />;
}
