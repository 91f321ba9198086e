// App.tsx as Stack's React docs write it (StackProvider, StackTheme, StackHandler on /handler/*), with a home page
// that says who is signed in and links to the handler pages, so a screenshot tells where the app is.
import { StackHandler, StackProvider, StackTheme, UserButton, useUser } from "@stackframe/react";
import { Suspense } from "react";
import { BrowserRouter, Link, Route, Routes, useLocation } from "react-router-dom";
import { stackClientApp } from "./stack/client";

function HandlerRoutes() {
  const location = useLocation();
  return <StackHandler app={stackClientApp} location={location.pathname} fullPage />;
}

function Home() {
  const user = useUser();
  return (
    <main style={{ padding: "2rem", fontFamily: "system-ui, sans-serif" }}>
      <h1>Stack React app</h1>
      <UserButton />
      <p data-testid="who">{user ? `Signed in as ${user.primaryEmail}` : "Not signed in"}</p>
      <nav style={{ display: "flex", gap: "1rem" }}>
        <Link to="/handler/sign-up">Sign up</Link>
        <Link to="/handler/sign-in">Sign in</Link>
        <Link to="/handler/account-settings">Account settings</Link>
        <Link to="/handler/sign-out">Sign out</Link>
      </nav>
    </main>
  );
}

export default function App() {
  return (
    <Suspense fallback={null}>
      <BrowserRouter>
        <StackProvider app={stackClientApp}>
          <StackTheme>
            <Routes>
              <Route path="/handler/*" element={<HandlerRoutes />} />
              <Route path="/" element={<Home />} />
            </Routes>
          </StackTheme>
        </StackProvider>
      </BrowserRouter>
    </Suspense>
  );
}
