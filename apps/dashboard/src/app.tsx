// The dashboard's whole UI below the provider: handler pages under /dashboard/handler, every other path a dashboard
// screen; all of it inside the bricks' styled root, so every screen's fields, buttons and alerts look alike.
import { StackHandler } from "@gatehouse/react";
import { ErrorBoundary, Root } from "@gatehouse/react/ui";
import { Suspense } from "react";
import { usePath } from "./router.tsx";
import { Route } from "./routes.tsx";

export function DashboardApp() {
  const path = usePath();
  return (
    <Root>
      {path === "/handler" || path.startsWith("/handler/") ? (
        <StackHandler />
      ) : (
        <ErrorBoundary key={path} fallback={failure}>
          <Suspense fallback={<p className="dash-loading">Loading…</p>}>
            <Route path={path} />
          </Suspense>
        </ErrorBoundary>
      )}
    </Root>
  );
}

/** A screen that failed to load says so, with the reason, instead of leaving the page blank. */
const failure = (error: Error) => (
  <div className="dash-failure" role="alert">
    <h1>This screen could not be loaded</h1>
    <p>{error.message}</p>
    <button type="button" className="gh-button" onClick={() => window.location.reload()}>
      Reload
    </button>
  </div>
);
