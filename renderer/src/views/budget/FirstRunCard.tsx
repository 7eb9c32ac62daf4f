/** The Budget view's first-run card on the built-in demo (first-run.ts says when). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { keys } from '../../api/queries';
import { ErrorCallout } from '../../components/states';
import { ADD_PROFILE_PARAM, navigate } from '../../lib/hash-route';
import { FIRST_RUN_TRAFFIC } from './first-run';
import './first-run.css';

const POINTS: { title: string; text: string }[] = [
  { title: 'Budget per endpoint', text: 'Limit, remaining and requests per second, as the service’s rate-limit headers report them.' },
  { title: 'Paced, never throttled', text: 'The client slows down before Remaining reaches 0 and backs off on 429s.' },
  { title: 'Alerts and reports', text: 'Rules per endpoint, a usage report by day and hour, and every request in the log.' },
];

export function FirstRunCard({ onDismiss }: { onDismiss: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: () => api.simSetDemoTraffic(FIRST_RUN_TRAFFIC),
    onSuccess: (state) => queryClient.setQueryData(keys.simState, state),
  });
  return (
    <section className="first-run" aria-labelledby="first-run-title">
      <button type="button" className="first-run-close" onClick={onDismiss} aria-label="Hide this introduction" title="Hide">
        ×
      </button>
      <div className="first-run-text">
        <p className="first-run-eyebrow">Built-in demo</p>
        <h2 id="first-run-title" className="first-run-title">
          See each endpoint’s request budget, live
        </h2>
        <p className="first-run-lead">
          Partner Console keeps every vendor inside the Partner service’s rate limits. You are connected to a simulated service with no traffic yet: start the
          demo traffic to watch the budgets fill, or connect your own vendor.
        </p>
        <div className="first-run-actions">
          <button type="button" className="btn btn-primary first-run-btn" onClick={() => start.mutate()} disabled={start.isPending}>
            <span className="first-run-play" aria-hidden="true" />
            {start.isPending ? 'Starting…' : 'Start demo traffic'}
          </button>
          <button type="button" className="btn first-run-btn" onClick={() => navigate('settings', ADD_PROFILE_PARAM)}>
            Add your vendor
          </button>
        </div>
        {start.isError ? <ErrorCallout error={start.error} action="Starting the demo traffic" /> : null}
      </div>
      <ul className="first-run-points">
        {POINTS.map((p) => (
          <li key={p.title}>
            <strong>{p.title}</strong>
            <span>{p.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
