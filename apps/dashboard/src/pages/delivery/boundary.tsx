// A part of a screen that reads on its own: "Loading…" while its first read is on the way, and its error in place
// (with a retry) instead of taking the whole screen down.
import { Alert, Button, Root } from "@gatehouse/react/ui";
import { Component, type ReactNode, Suspense } from "react";

class Failure extends Component<
  { children: ReactNode; what: string; onRetry?: () => void },
  { error: Error | null }
> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Root>
        <div className="dash-actions">
          <Alert>
            {this.props.what} could not be loaded: {this.state.error.message}
          </Alert>
          {this.props.onRetry && (
            <Button
              onClick={() => {
                this.props.onRetry?.();
                this.setState({ error: null });
              }}
            >
              Try again
            </Button>
          )}
        </div>
      </Root>
    );
  }
}

export function Loading({
  what,
  onRetry,
  children,
}: {
  what: string;
  onRetry?: () => void;
  children: ReactNode;
}) {
  return (
    <Failure what={what} onRetry={onRetry}>
      <Suspense fallback={<p className="dash-muted">Loading {what.toLowerCase()}…</p>}>{children}</Suspense>
    </Failure>
  );
}
