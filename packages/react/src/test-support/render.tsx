// Renders a page or component the way an app does: under a StackProvider, a Suspense (its fallback says
// "loading") and an error boundary that shows what was thrown. Rendering inside an awaited act lets suspended
// components settle before the test looks.
import type { StackClientApp } from "@gatehouse/sdk";
import { act, render } from "@testing-library/react";
import { Component, type ReactNode, Suspense } from "react";
import { StackProvider, type ThemeMode } from "../provider.tsx";

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>thrown: {this.state.error.message}</p> : this.props.children;
  }
}

/** Puts the browser at `path` (query included) before a page reads its parameters. */
export function visit(path: string): void {
  window.history.replaceState(null, "", path);
}

export async function renderWithApp(
  app: StackClientApp,
  element: ReactNode,
  options: { theme?: ThemeMode } = {},
) {
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    result = render(
      <StackProvider app={app} theme={options.theme}>
        <Boundary>
          <Suspense fallback={<p>loading</p>}>{element}</Suspense>
        </Boundary>
      </StackProvider>,
    );
  });
  return result as ReturnType<typeof render>;
}
