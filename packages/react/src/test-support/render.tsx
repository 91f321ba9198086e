// Renders a page or component the way an app does: under a StackProvider, a Suspense (its fallback says
// "loading") and an error boundary that shows what was thrown. Rendering inside an awaited act lets suspended
// components settle before the test looks.
import type { StackClientApp } from "@gatehouse/sdk";
import { act, render } from "@testing-library/react";
import { type ReactNode, Suspense } from "react";
import { StackProvider, type ThemeMode } from "../provider.tsx";
import { ErrorBoundary } from "../ui/error-boundary.tsx";

/** What a test's element threw, shown in its place for the test to see. */
const showThrown = (error: Error) => <p>thrown: {error.message}</p>;

/** Puts the browser at `path` (query included) before a page reads its parameters. */
export function visit(path: string): void {
  window.history.replaceState(null, "", path);
}

export async function renderWithApp(
  app: StackClientApp,
  element: ReactNode,
  /** `lang`: the provider's language (the pages' and the dashboard's texts), as an app passes it. */
  options: { theme?: ThemeMode; lang?: string } = {},
) {
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    result = render(
      <StackProvider app={app} theme={options.theme} lang={options.lang}>
        <ErrorBoundary fallback={showThrown}>
          <Suspense fallback={<p>loading</p>}>{element}</Suspense>
        </ErrorBoundary>
      </StackProvider>,
    );
  });
  return result as ReturnType<typeof render>;
}
