// Acme Notes, the demo: one Gatehouse app, a header with the team switcher and user button, and a page chosen from
// the path at load (links are plain <a>, so every navigation loads the page again). /handler/* are Gatehouse's pages.
import { ImpersonationBanner, StackHandler, StackProvider } from "@gatehouse/react";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { Header } from "./header.tsx";
import { Home, NotFound } from "./home.tsx";
import { Protected } from "./protected.tsx";
import { stackApp } from "./stack.ts";

function Page({ path }: { path: string }) {
  if (path === stackApp.urls.handler || path.startsWith(`${stackApp.urls.handler}/`)) {
    return <StackHandler app={stackApp} fullPage />;
  }
  // An operator acting as a user (the dashboard's Impersonate) sees whose account this is on every page.
  return (
    <>
      <ImpersonationBanner />
      <Header />
      <main className="demo-main">
        <Suspense fallback={<p className="demo-muted">Loading…</p>}>
          {path === "/" ? <Home /> : path === "/protected" ? <Protected /> : <NotFound />}
        </Suspense>
      </main>
    </>
  );
}

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element.");
createRoot(root).render(
  <StrictMode>
    <StackProvider app={stackApp}>
      <Page path={window.location.pathname.replace(/(.)\/+$/, "$1")} />
    </StackProvider>
  </StrictMode>,
);
