// The home page: who is signed in, read on the server as Stack's docs show, and links to the handler pages, so a
// screenshot tells where the app is.
import { UserButton } from "@stackframe/stack";
import Link from "next/link";
import { stackServerApp } from "@/stack/server";

export default async function Home() {
  const user = await stackServerApp.getUser();
  return (
    <main style={{ padding: "2rem", fontFamily: "system-ui, sans-serif" }}>
      <h1>Stack Next.js app</h1>
      <UserButton />
      <p data-testid="who">{user ? `Signed in as ${user.primaryEmail}` : "Not signed in"}</p>
      <nav style={{ display: "flex", gap: "1rem" }}>
        <Link href="/handler/sign-up">Sign up</Link>
        <Link href="/handler/sign-in">Sign in</Link>
        <Link href="/handler/account-settings">Account settings</Link>
        <Link href="/handler/sign-out">Sign out</Link>
      </nav>
    </main>
  );
}
