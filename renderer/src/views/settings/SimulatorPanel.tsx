/**
 * Controls of the built-in simulator (shown only when connected to it): payload dialect, refill model, latency,
 * faults, a competing consumer, and demo traffic through the app's own client, so that anyone can
 * watch the client pace and back off live.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { EndpointId } from '../../../../shared/endpoints';
import { ENDPOINT_IDS, ENDPOINT_LIST, ENDPOINTS, isEndpointId } from '../../../../shared/endpoints';
import { SIM_DIALECTS, isSimDialect } from '../../../../shared/sim-dialects';
import { useApi } from '../../api/context';
import type { SimState } from '../../api/queries';
import { keys, useConnection } from '../../api/queries';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Pill } from '../../components/Pill';
import { ErrorCallout } from '../../components/states';
import { ReplayBlock } from './ReplayBlock';

type Faults = SimState['faults'];

function Percent({ label, value, onChange }: { label: string; value: number; onChange: (share: number) => void }) {
  return (
    <label className="field slider-field">
      <span className="field-label">
        {label} <span className="mono">{Math.round(value * 100)}%</span>
      </span>
      <input type="range" min={0} max={100} step={1} value={Math.round(value * 100)} onChange={(e) => onChange(Number(e.target.value) / 100)} />
    </label>
  );
}

export function SimulatorPanel({ state }: { state: SimState }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const connection = useConnection();
  const vendor = connection.data?.vendor ?? state.competitors[0]?.vendor ?? 'demo';
  const apply = useMutation({
    mutationFn: (f: () => Promise<SimState>) => f(),
    onSuccess: (s) => queryClient.setQueryData(keys.simState, s),
  });

  const [faults, setFaults] = useState<Faults>(state.faults);
  useEffect(() => setFaults(state.faults), [state.faults]);
  const faultsDirty = JSON.stringify(faults) !== JSON.stringify(state.faults);

  const competitor = state.competitors[0] ?? null;
  const [compEndpoint, setCompEndpoint] = useState<EndpointId>(competitor?.endpoint ?? 'listAssets');
  // Default: 40% of the endpoint's limit, so the demo shows sharing rather than a standing 429 storm.
  const [compRps, setCompRps] = useState<number>(competitor?.rps ?? Math.round(ENDPOINTS[compEndpoint].limit * 0.4));

  const [share, setShare] = useState(state.demoTraffic.share > 0 ? state.demoTraffic.share : 1);
  const [demoEndpoints, setDemoEndpoints] = useState<Set<EndpointId>>(
    new Set(state.demoTraffic.endpoints.length > 0 ? state.demoTraffic.endpoints : ENDPOINT_IDS),
  );
  const demoOn = state.demoTraffic.share > 0 && state.demoTraffic.endpoints.length > 0;
  const [resetting, setResetting] = useState(false);

  return (
    <section className="panel settings-card settings-wide" aria-labelledby="sim-title">
      <div className="section-head-row">
        <h2 id="sim-title" className="section-title">
          Built-in simulator <span className="demo-tag">DEMO</span>
        </h2>
        <span className="muted small mono">{state.url}</span>
        <span className="muted small">{state.catalogSize.toLocaleString()} assets</span>
        <button type="button" className="btn btn-danger-ghost" onClick={() => setResetting(true)}>
          Reset simulator
        </button>
      </div>
      {apply.isError ? <ErrorCallout error={apply.error} /> : null}

      <div className="sim-grid">
        <fieldset className="sim-block">
          <legend className="sim-legend">Demo traffic</legend>
          <p className="muted small">Requests sent through the app's own client at a share of each endpoint's limit.</p>
          <label className="field slider-field">
            <span className="field-label">
              Share of each endpoint's limit <span className="mono">{Math.round(share * 100)}%</span>
            </span>
            <input
              type="range"
              aria-label="Demo traffic share of each endpoint's limit"
              min={0}
              max={150}
              step={5}
              value={Math.round(share * 100)}
              onChange={(e) => setShare(Number(e.target.value) / 100)}
            />
          </label>
          <div className="check-grid" role="group" aria-label="Demo traffic endpoints">
            {ENDPOINT_LIST.map((e) => (
              <label key={e.id} className="check small">
                <input
                  type="checkbox"
                  checked={demoEndpoints.has(e.id)}
                  onChange={(ev) => {
                    const next = new Set(demoEndpoints);
                    if (ev.target.checked) next.add(e.id);
                    else next.delete(e.id);
                    setDemoEndpoints(next);
                  }}
                />
                <span className="mono">{e.label}</span>
              </label>
            ))}
          </div>
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={apply.isPending || demoEndpoints.size === 0 || share <= 0}
              onClick={() => apply.mutate(() => api.simSetDemoTraffic({ share, endpoints: ENDPOINT_IDS.filter((id) => demoEndpoints.has(id)) }))}
            >
              {demoOn ? 'Update demo traffic' : 'Start demo traffic'}
            </button>
            <button
              type="button"
              className="btn"
              disabled={!demoOn || apply.isPending}
              onClick={() => apply.mutate(() => api.simSetDemoTraffic({ share: 0, endpoints: [] }))}
            >
              Stop demo traffic
            </button>
            {demoOn ? (
              <Pill tone="info">
                running: {Math.round(state.demoTraffic.share * 100)}% on {state.demoTraffic.endpoints.length} endpoints
              </Pill>
            ) : (
              <Pill>stopped</Pill>
            )}
          </div>
        </fieldset>
        <fieldset className="sim-block">
          <legend className="sim-legend">Competing consumer</legend>
          <p className="muted small">Another client spending vendor {vendor}'s budget on one endpoint, as another token or machine would.</p>
          <div className="form-row">
            <label className="field">
              <span className="field-label">Endpoint</span>
              <select
                className="input"
                aria-label="Competitor endpoint"
                value={compEndpoint}
                onChange={(e) => isEndpointId(e.target.value) && setCompEndpoint(e.target.value)}
              >
                {ENDPOINT_LIST.map((e) => (
                  <option key={e.id} value={e.id}>
                    {e.label} (limit {e.limit})
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span className="field-label">Requests/s</span>
              <input
                className="input"
                aria-label="Competitor requests per second"
                type="number"
                min={0}
                max={1000}
                value={compRps}
                onChange={(e) => setCompRps(Number(e.target.value))}
              />
            </label>
          </div>
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={apply.isPending || compRps <= 0}
              onClick={() => apply.mutate(() => api.simSetCompetitors({ competitors: [{ vendor, endpoint: compEndpoint, rps: compRps }] }))}
            >
              {competitor ? 'Update competitor' : 'Turn on competitor'}
            </button>
            <button
              type="button"
              className="btn"
              disabled={!competitor || apply.isPending}
              onClick={() => apply.mutate(() => api.simSetCompetitors({ competitors: [] }))}
            >
              Turn off competitor
            </button>
            {competitor ? (
              <Pill tone="warn">
                on: {competitor.rps}/s on {ENDPOINTS[competitor.endpoint].label}
              </Pill>
            ) : (
              <Pill>off</Pill>
            )}
          </div>
        </fieldset>
        <fieldset className="sim-block">
          <legend className="sim-legend">Dialect, refill, latency and faults</legend>
          <label className="field">
            <span className="field-label">Payload dialect</span>
            <select
              className="input"
              aria-label="Payload dialect"
              value={state.dialect}
              disabled={apply.isPending}
              onChange={(e) => {
                const dialect = e.target.value;
                if (isSimDialect(dialect)) apply.mutate(() => api.simSetDialect({ dialect }));
              }}
            >
              {SIM_DIALECTS.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
            <span className="muted small">
              The same service with other field names, envelopes and parameters. This profile's service map is not changed: detect it again to read another
              dialect.
            </span>
          </label>
          <div role="radiogroup" aria-label="Refill model" className="radio-row">
            {(['whole-second', 'continuous'] as const).map((m) => (
              <label key={m} className="check">
                <input type="radio" name="refill" checked={state.refill === m} onChange={() => apply.mutate(() => api.simSetRefill({ model: m }))} />
                {m === 'whole-second' ? 'Whole second (Yii2: the budget comes back each second)' : 'Continuous (leaky bucket)'}
              </label>
            ))}
          </div>
          <div className="form-row">
            <label className="field">
              <span className="field-label">Latency (ms)</span>
              <input
                className="input"
                type="number"
                min={0}
                max={10000}
                value={faults.latencyMs}
                onChange={(e) => setFaults({ ...faults, latencyMs: Number(e.target.value) })}
              />
            </label>
            <label className="field">
              <span className="field-label">Jitter (ms)</span>
              <input
                className="input"
                type="number"
                min={0}
                max={10000}
                value={faults.jitterMs}
                onChange={(e) => setFaults({ ...faults, jitterMs: Number(e.target.value) })}
              />
            </label>
          </div>
          <Percent label="5xx answers" value={faults.errorRate} onChange={(v) => setFaults({ ...faults, errorRate: v })} />
          <Percent label="Dropped connections" value={faults.dropRate} onChange={(v) => setFaults({ ...faults, dropRate: v })} />
          <Percent label="Garbled rate-limit headers" value={faults.garbleRate} onChange={(v) => setFaults({ ...faults, garbleRate: v })} />
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={!faultsDirty || apply.isPending}
              onClick={() => apply.mutate(() => api.simSetFaults(faults))}
            >
              Apply faults
            </button>
            <button
              type="button"
              className="btn"
              disabled={apply.isPending}
              onClick={() => apply.mutate(() => api.simSetFaults({ latencyMs: 0, jitterMs: 0, errorRate: 0, dropRate: 0, garbleRate: 0 }))}
            >
              No faults
            </button>
          </div>
        </fieldset>
        <ReplayBlock />
      </div>
      <ConfirmDialog
        open={resetting}
        title="Reset the simulator?"
        danger
        onClose={() => setResetting(false)}
        onConfirm={() =>
          apply.mutate(async () => {
            const s = await api.simReset({});
            void queryClient.invalidateQueries({ queryKey: keys.ledger });
            return s;
          })
        }
      >
        Budgets, purchases and counters of the simulator go back to their start. Demo traffic and the competitor stop.
      </ConfirmDialog>
    </section>
  );
}
