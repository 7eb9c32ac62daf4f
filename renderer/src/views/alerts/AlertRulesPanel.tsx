/** A profile's alert rules (the connected one unless another is chosen): on or off, endpoint, threshold and minutes, saved one row at a time. */
import { useState } from 'react';
import type { AlertKind, AlertRule } from '../../../../shared/bridge/alert-schemas';
import { ENDPOINT_KINDS } from '../../../../shared/bridge/alert-schemas';
import { ENDPOINT_IDS, ENDPOINTS, isEndpointId } from '../../../../shared/endpoints';
import { useProfiles } from '../../api/queries';
import { ErrorCallout, Loading } from '../../components/states';
import { describeError } from '../../lib/error-text';
import { useAlertRules, useSaveRule } from './alert-queries';

const KIND_TEXT: Record<AlertKind, { name: string; minutes: string | null }> = {
  'use-above': { name: 'Use above the threshold', minutes: 'for (min)' },
  throttled: { name: 'Any 429 (too many requests)', minutes: 'clears after (min)' },
  foreign: { name: 'Another consumer detected', minutes: 'clears after (min)' },
  down: { name: 'Service down', minutes: 'for (min)' },
  'download-failed': { name: 'A download failed', minutes: null },
};

function RuleRow({ rule }: { rule: AlertRule }) {
  const [draft, setDraft] = useState(rule);
  const save = useSaveRule();
  const dirty = JSON.stringify(draft) !== JSON.stringify(rule);
  const text = KIND_TEXT[rule.kind];
  const name = text.name;
  return (
    <tr data-kind={rule.kind} data-enabled={rule.enabled}>
      <td>
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })} aria-label={`${name}: on`} />{' '}
          {name}
        </label>
      </td>
      <td>
        {ENDPOINT_KINDS.has(rule.kind) ? (
          <select
            className="input"
            aria-label={`${name}: endpoint`}
            value={draft.endpoint ?? ''}
            onChange={(e) => setDraft({ ...draft, endpoint: isEndpointId(e.target.value) ? e.target.value : null })}
          >
            <option value="">All endpoints</option>
            {ENDPOINT_IDS.map((id) => (
              <option key={id} value={id}>
                {ENDPOINTS[id].label}
              </option>
            ))}
          </select>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        {rule.kind === 'use-above' ? (
          <label className="rule-number">
            <input
              className="input"
              type="number"
              min={1}
              max={100}
              step={1}
              aria-label={`${name}: percent of the limit`}
              value={draft.thresholdPct ?? ''}
              onChange={(e) => setDraft({ ...draft, thresholdPct: e.target.value === '' ? null : Number(e.target.value) })}
            />{' '}
            % of limit
          </label>
        ) : null}
      </td>
      <td>
        {text.minutes ? (
          <label className="rule-number">
            <input
              className="input"
              type="number"
              min={0}
              max={1440}
              step={0.5}
              aria-label={`${name}: minutes`}
              value={draft.minutes}
              onChange={(e) => setDraft({ ...draft, minutes: Number(e.target.value) })}
            />{' '}
            {text.minutes}
          </label>
        ) : null}
      </td>
      <td className="rule-actions">
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={!dirty || save.isPending}
          onClick={() => save.mutate(draft, { onSuccess: setDraft })}
        >
          Save
        </button>
        {save.isError ? (
          <span className="text-danger small" role="alert">
            {describeError(save.error).title}
          </span>
        ) : null}
      </td>
    </tr>
  );
}

export function AlertRulesPanel({ connectedId }: { connectedId: string | null }) {
  const profiles = useProfiles();
  const [chosen, setChosen] = useState<string | null>(null);
  const profileId = chosen ?? connectedId;
  const rules = useAlertRules(profileId);
  const items = profiles.data?.items ?? [];
  return (
    <section className="panel alert-rules" aria-label="Alert rules">
      <div className="alert-rules-head">
        <h2 className="section-title">Rules</h2>
        {items.length > 0 ? (
          <select className="input" aria-label="Profile whose rules are shown" value={profileId ?? ''} onChange={(e) => setChosen(e.target.value || null)}>
            {items.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.vendor}){p.id === connectedId ? ', connected' : ''}
              </option>
            ))}
          </select>
        ) : null}
      </div>
      {profileId === null ? <p className="muted">Connect a profile to edit its rules.</p> : null}
      {rules.isPending && profileId !== null ? <Loading /> : null}
      {rules.isError ? <ErrorCallout error={rules.error} action="Reading the rules" onRetry={() => void rules.refetch()} /> : null}
      {rules.data ? (
        <table className="rules-table">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Threshold</th>
              <th scope="col">Time</th>
              <th scope="col">
                <span className="visually-hidden">Save</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.data.rules.map((r) => (
              <RuleRow key={`${r.id}:${JSON.stringify(r)}`} rule={r} />
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted small">
        New profiles are offered these rules turned off; the demo has them on. A notification is raised at most once per rule every 10 minutes.
      </p>
    </section>
  );
}
