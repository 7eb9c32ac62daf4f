/**
 * One error boundary per view: a view that throws (a malformed link, a bad answer, a chunk that
 * cannot load while offline) shows what happened and a way back, and the navigation stays. Reset by
 * "Try again", by moving to another route, and when the link to the services comes back; react-query's
 * reset boundary lets queries that failed run again.
 */
import { QueryErrorResetBoundary } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Suspense } from 'react';
import type { FallbackProps } from 'react-error-boundary';
import { ErrorBoundary } from 'react-error-boundary';
import { useLink } from '../api/context';
import { Loading } from './states';

/** A failed dynamic import (the view's code) rather than a fault in the view. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically/i.test(error.message)
  );
}

function ViewCrashed({ error, resetErrorBoundary, title }: FallbackProps & { title: string }) {
  const link = useLink();
  const chunk = isChunkLoadError(error);
  const offline = link.state !== 'open';
  return (
    <div className="view">
      <div className="callout callout-error view-crashed" role="alert">
        <div className="callout-title">{chunk ? `${title} could not be loaded.` : `${title} stopped working.`}</div>
        <div>
          {chunk
            ? offline
              ? 'The Partner Console service is not reachable, so this view’s code could not be fetched. It loads by itself when the connection is back; the other views you opened before keep working.'
              : 'This view’s code could not be fetched. Try again, or reload the page if the app was updated.'
            : 'Something in this view failed while drawing it. The rest of the app works: pick another view above, or try this one again.'}
        </div>
        {!chunk && error instanceof Error ? <code className="code-chip break">{error.message}</code> : null}
        <div className="toolbar">
          <button type="button" className="btn btn-small" onClick={resetErrorBoundary}>
            Try again
          </button>
          <a className="btn btn-small" href="#/budget">
            Go to Budget
          </a>
          {chunk && !offline ? (
            <button type="button" className="btn btn-small" onClick={() => window.location.reload()}>
              Reload the page
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}

export function ViewBoundary({ title, resetKey, onReset, children }: { title: string; resetKey: string; onReset?: () => void; children: ReactNode }) {
  const link = useLink();
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary
          resetKeys={[resetKey, link.state]}
          onReset={() => {
            reset();
            onReset?.();
          }}
          fallbackRender={(props) => <ViewCrashed {...props} title={title} />}
        >
          <Suspense fallback={<Loading />}>{children}</Suspense>
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}
