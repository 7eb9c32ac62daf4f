/** Loading, empty and error states, the same everywhere. */
import type { ReactNode } from 'react';
import { describeError } from '../lib/error-text';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <strong>{title}</strong>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}

/** An error in words: what happened, whether trying again is safe, and the code for QA. */
export function ErrorCallout({ error, action, onRetry, children }: { error: unknown; action?: string; onRetry?: () => void; children?: ReactNode }) {
  const text = describeError(error, action);
  return (
    <div className="callout callout-error" role="alert">
      <div className="callout-title">
        {text.title}
        <code className="code-chip">{text.code}</code>
      </div>
      <div>{text.detail}</div>
      {text.hint && text.hint !== text.detail ? <div className="muted">{text.hint}</div> : null}
      {text.retry ? <div className="callout-retry">{text.retry}</div> : null}
      {onRetry && text.retryable ? (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
      {children}
    </div>
  );
}
