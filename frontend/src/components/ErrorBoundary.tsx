import { Trans } from "@lingui/react/macro";
import { Component, type ErrorInfo, type ReactNode } from "react";

type State = { error: Error | null };

/** The router's fallback screen: 'Unexpected Application Error!' with the message. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="mx-auto max-w-2xl p-6">
        <h1 className="mb-3 text-2xl font-bold">
          <Trans>Unexpected Application Error!</Trans>
        </h1>
        <pre className="whitespace-pre-wrap rounded bg-red-50 p-4 text-red-900">
          {this.state.error.message}
        </pre>
        <a className="mt-4 inline-block text-brand-700 underline" href="/">
          <Trans>Go to the home page</Trans>
        </a>
      </main>
    );
  }
}
