// The root layout as Stack's docs write it: StackProvider and StackTheme around every page.
import { StackProvider, StackTheme } from "@stackframe/stack";
import type React from "react";
import { stackServerApp } from "@/stack/server";

export const metadata = { title: "Stack Next.js app on Gatehouse" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <StackProvider app={stackServerApp}>
          <StackTheme>{children}</StackTheme>
        </StackProvider>
      </body>
    </html>
  );
}
