import { type ComponentType, lazy } from 'react';

const failed = new Set<() => void>();

/**
 * React.lazy whose load can be tried again. React keeps a lazy component's failed load for good,
 * so a component whose chunk failed (network lost, a deployment replaced it) is given a new lazy
 * one by `renewFailedLoads`, which the part's Retry (the dialog opened again, the menu clicked
 * again) calls before drawing it again. Not at once on failure: React draws a suspended part again
 * when its load settles, and a new lazy then would fetch again, and again, instead of showing the
 * error to the error boundary.
 */
export function retryableLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const attempt = () =>
    load().catch((error: unknown) => {
      failed.add(renew);
      throw error;
    });
  let Lazy = lazy(attempt);
  function renew() {
    Lazy = lazy(attempt);
  }
  return function Retryable(props: P) {
    return <Lazy {...props} />;
  };
}

/** Every lazy component whose load failed loads again when next drawn (a lost network usually failed all). */
export function renewFailedLoads() {
  for (const renew of failed) renew();
  failed.clear();
}
