// ErrorBoundary: what a part of the page throws while rendering (a failed read included) is shown in its place by
// `fallback`, with a `retry` that renders the children again; the rest of the page stays. A change of any of
// `resetKeys` (or of the boundary's React key) starts afresh too.
import { Component, type ReactNode } from "react";

export type ErrorBoundaryProps = {
  children: ReactNode;
  /** What stands in for the children once they threw; `retry` renders them again. */
  fallback: (error: Error, retry: () => void) => ReactNode;
  /** Values that, when one of them changes, clear a caught error (the path of a routed screen, say). */
  resetKeys?: readonly unknown[];
};

const differ = (a: readonly unknown[] = [], b: readonly unknown[] = []) =>
  a.length !== b.length || a.some((value, index) => !Object.is(value, b[index]));

export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(previous: ErrorBoundaryProps) {
    if (this.state.error && differ(previous.resetKeys, this.props.resetKeys)) this.setState({ error: null });
  }

  retry = () => this.setState({ error: null });

  override render() {
    return this.state.error ? this.props.fallback(this.state.error, this.retry) : this.props.children;
  }
}
