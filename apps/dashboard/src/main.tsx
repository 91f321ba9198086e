// The Gatehouse dashboard: an app of the internal project, served by the server under /dashboard. Handler pages
// (sign-in, sign-up, account settings…) under /dashboard/handler; every other path is a dashboard screen.
import { StackHandler, StackProvider } from "@gatehouse/react";
import { ErrorBoundary } from "@gatehouse/react/ui";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import "./dashboard.css";
import { usePath } from "./router.tsx";
import { Route } from "./routes.tsx";
import { stackApp } from "./stack.ts";

function Dashboard() {
  const path = usePath();
  if (path === "/handler" || path.startsWith("/handler/")) return <StackHandler />;
  return (
    <ErrorBoundary key={path} fallback={failure}>
      <Suspense fallback={<p className="dash-loading">Loading…</p>}>
        <Route path={path} />
      </Suspense>
    </ErrorBoundary>
  );
}

/** A screen that failed to load says so, with the reason, instead of leaving the page blank. */
const failure = (error: Error) => (
  <div className="dash-failure" role="alert">
    <h1>This screen could not be loaded</h1>
    <p>{error.message}</p>
    <button type="button" onClick={() => window.location.reload()}>
      Reload
    </button>
  </div>
);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element.");
createRoot(root).render(
  <StrictMode>
    <StackProvider app={stackApp}>
      <Dashboard />
    </StackProvider>
  </StrictMode>,
);
