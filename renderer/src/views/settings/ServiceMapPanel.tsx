/**
 * One profile's service map: how its answers are read. "Detect" probes the service (at most 3
 * requests) and proposes a map with a confidence per field; the proposal is edited as a form or as
 * JSON (checked by the map's own schema, problems in words) beside a preview of what the draft reads
 * from the sampled answers, then saved. Low-confidence fields are marked: nothing is guessed silently.
 * Exported and imported as a JSON file. Grafana Infinity's field mapping with a preview is the model.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Detection } from '../../../../shared/service-map/bridge';
import { CANONICAL_STATES, PURCHASE_ACTIONS, parseServiceMap } from '../../../../shared/service-map/schema';
import type { ServiceMap } from '../../../../shared/service-map/schema';
import { useApi } from '../../api/context';
import type { ProfileView } from '../../api/queries';
import { serviceMapKey, useServiceMap } from '../../api/service-map-queries';
import { Pill } from '../../components/Pill';
import { ErrorCallout, Loading } from '../../components/states';
import { fmtPercent } from '../../lib/format';
import { MapPreview } from './MapPreview';
import { MAP_SECTIONS, confidenceLevel, fromInput, getAt, inputText, setAt } from './service-map-fields';
import type { MapField } from './service-map-fields';
import './service-map.css';

type Evidence = Detection['fields'][number];

const SOURCE_PILL = {
  saved: { tone: 'ok', text: 'saved map' },
  detected: { tone: 'warn', text: 'detected, not yet reviewed' },
  default: { tone: 'neutral', text: 'default map' },
} as const;

/** Detection names fields as the map does ("asset.price"); a placement's parts share their parent's evidence. */
function evidenceFor(detection: Detection | null, key: string): Evidence | null {
  if (!detection) return null;
  const parts = key.split('.');
  for (let n = parts.length; n > 0; n--) {
    const hit = detection.fields.find((f) => f.field === parts.slice(0, n).join('.'));
    if (hit) return hit;
  }
  return null;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ServiceMapPanel({ profile, onClose }: { profile: ProfileView; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const titleId = useId();
  const current = useServiceMap(profile.id);
  const [draft, setDraft] = useState<ServiceMap | null>(null);
  const [detection, setDetection] = useState<Detection | null>(null);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [jsonText, setJsonText] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);

  const map = draft ?? current.data?.map ?? null;
  const changed = draft !== null;

  const detect = useMutation({
    mutationFn: () => api.serviceMapDetect({ profileId: profile.id }),
    onSuccess: (d) => {
      setDetection(d);
      setDraft(d.map);
      setJsonText(null);
      setProblems([]);
      setNotice(null);
    },
  });
  const save = useMutation({
    mutationFn: (m: ServiceMap) => api.serviceMapSave({ profileId: profile.id, map: m }),
    onSuccess: (view) => {
      queryClient.setQueryData(serviceMapKey(profile.id), view);
      setDraft(null);
      setJsonText(null);
      setNotice('Saved. Catalog and purchase answers of this profile are now read with this map.');
      // Every answer of this profile was read with the old map.
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'serviceMap' });
    },
  });

  const edit = (next: ServiceMap) => {
    setDraft(next);
    setNotice(null);
    setProblems([]);
  };
  const accept = () => {
    if (!map) return;
    const checked = parseServiceMap(map);
    if (!checked.ok) {
      setProblems(checked.errors);
      return;
    }
    save.mutate(checked.map);
  };
  const importFile = async (file: File) => {
    const checked = parseServiceMap(await file.text());
    if (!checked.ok) {
      setProblems([`${file.name} is not a service map:`, ...checked.errors]);
      return;
    }
    edit(checked.map);
    setJsonText(null);
    setNotice(`Imported ${file.name}: check it, then save.`);
  };

  const lowFields = detection ? detection.fields.filter((f) => confidenceLevel(f.confidence) === 'low') : [];

  return (
    <section className="form-card map-panel" aria-labelledby={titleId}>
      <div className="section-head-row">
        <h3 id={titleId} className="section-title">
          Service map · {profile.name}
        </h3>
        {current.data ? <Pill tone={SOURCE_PILL[current.data.source].tone}>{SOURCE_PILL[current.data.source].text}</Pill> : null}
        {changed ? <Pill tone="warn">not saved</Pill> : null}
        <button type="button" className="btn btn-ghost" onClick={onClose} aria-label="Close service map">
          ✕
        </button>
      </div>
      <p className="muted small map-intro">
        How this service is called and how its answers are read: where the items are, the names of parameters and fields (paths such as{' '}
        <code>data[].attributes.title</code>, alternatives with <code>|</code>), price units and state words. Detect reads a few answers (at most 3 requests)
        and proposes a map; nothing is used until you save it.
      </p>
      {current.data?.source === 'detected' && !changed ? (
        <div className="callout" role="status">
          <div className="callout-title">Detected, not yet reviewed</div>
          <div>
            This map was detected from the service's answers (when the profile first connected, or by Detect again) and is in use. Check the fields below
            {current.data.map.learned?.length ? (
              <>
                {' '}
                (learned from the service's own 400 answers:{' '}
                {current.data.map.learned.map((f, i) => (
                  <span key={f}>
                    {i > 0 ? ', ' : ''}
                    <code className="code-chip">{f}</code>
                  </span>
                ))}
                )
              </>
            ) : null}
            , then keep it as yours.
          </div>
          <div>
            <button type="button" className="btn btn-small" onClick={() => current.data && save.mutate(current.data.map)} disabled={save.isPending}>
              Reviewed: keep this map
            </button>
          </div>
        </div>
      ) : null}
      <div className="map-tools">
        <button type="button" className="btn btn-primary" onClick={() => detect.mutate()} disabled={detect.isPending}>
          {detect.isPending ? 'Detecting…' : 'Detect'}
        </button>
        <button type="button" className="btn" onClick={accept} disabled={!changed || save.isPending || profile.demo}>
          {detection && changed ? 'Accept and save' : 'Save'}
        </button>
        {changed ? (
          <button type="button" className="btn" onClick={() => (setDraft(null), setJsonText(null), setProblems([]), setDetection(null))}>
            Discard changes
          </button>
        ) : null}
        <span className="map-tools-gap" />
        <button
          type="button"
          className="btn"
          disabled={!map}
          onClick={() => map && download(`service-map-${profile.vendor}.json`, JSON.stringify(map, null, 2))}
        >
          Export JSON
        </button>
        <label className="btn file-button">
          Import JSON…
          <input
            type="file"
            accept=".json,application/json"
            className="visually-hidden"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importFile(file);
            }}
          />
        </label>
      </div>
      {profile.demo ? (
        <p className="muted small">The built-in demo reads its own answers with the default map; it cannot be changed (export it as a starting point).</p>
      ) : null}
      {detect.isError ? <ErrorCallout error={detect.error} action="detect the service map" /> : null}
      {save.isError ? <ErrorCallout error={save.error} action="save the service map" /> : null}
      {notice ? (
        <div className="callout" role="status">
          {notice}
        </div>
      ) : null}
      {problems.length > 0 ? (
        <div className="callout callout-error" role="alert">
          <div className="callout-title">The map cannot be used as it is</div>
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {detection ? (
        <div className={lowFields.length > 0 ? 'callout callout-warn' : 'callout'} role="status">
          <div className="callout-title">
            Proposed map · confidence {fmtPercent(detection.confidence)} ({confidenceLevel(detection.confidence)}) · {detection.requests}{' '}
            {detection.requests === 1 ? 'request' : 'requests'} spent
          </div>
          {lowFields.length > 0 ? (
            <div>
              Check the fields marked <strong>low</strong> before saving: {lowFields.map((f) => f.field).join(', ')}.
            </div>
          ) : (
            <div>Every field was found with good evidence. Look at the preview, then save.</div>
          )}
          {detection.warnings.map((w) => (
            <div key={w}>{w}</div>
          ))}
        </div>
      ) : null}

      {current.isPending ? (
        <Loading label="Loading the service map…" />
      ) : current.isError ? (
        <ErrorCallout error={current.error} onRetry={() => void current.refetch()} />
      ) : map ? (
        <div className="map-body">
          <div className="map-editor">
            <div className="segmented" role="group" aria-label="Edit as">
              <button type="button" aria-pressed={mode === 'form'} onClick={() => setMode('form')}>
                Form
              </button>
              <button type="button" aria-pressed={mode === 'json'} onClick={() => setMode('json')}>
                JSON
              </button>
            </div>
            {mode === 'form' ? (
              <MapForm map={map} detection={detection} onChange={edit} />
            ) : (
              <JsonEditor
                text={jsonText ?? JSON.stringify(map, null, 2)}
                onText={(text) => {
                  setJsonText(text);
                  const checked = parseServiceMap(text);
                  if (checked.ok) edit(checked.map);
                  setProblems(checked.ok ? [] : checked.errors);
                }}
              />
            )}
          </div>
          <MapPreview map={map} samples={detection?.samples ?? null} />
        </div>
      ) : null}
    </section>
  );
}

function JsonEditor({ text, onText }: { text: string; onText: (text: string) => void }) {
  return (
    <label className="field">
      <span className="field-label">The map as JSON (checked as you type; problems are listed above)</span>
      <textarea className="input mono map-json" spellCheck={false} value={text} onChange={(e) => onText(e.target.value)} rows={24} />
    </label>
  );
}

function ConfidenceBadge({ evidence }: { evidence: Evidence | null }) {
  if (!evidence) return null;
  const level = confidenceLevel(evidence.confidence);
  return (
    <span className={`map-conf map-conf-${level}`} title={evidence.evidence}>
      {level}
    </span>
  );
}

function FieldInput({ field, map, onChange }: { field: MapField; map: ServiceMap; onChange: (m: ServiceMap) => void }) {
  const value = getAt(map, field.key);
  if (typeof field.kind === 'object') {
    return (
      <select className="input" value={inputText(value)} onChange={(e) => onChange(setAt(map, field.key, e.target.value))}>
        {field.kind.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      className="input mono"
      type={field.kind === 'number' ? 'number' : 'text'}
      value={inputText(value)}
      placeholder={field.nullable ? 'none' : undefined}
      onChange={(e) => onChange(setAt(map, field.key, fromInput(field, e.target.value)))}
    />
  );
}

function MapForm({ map, detection, onChange }: { map: ServiceMap; detection: Detection | null; onChange: (m: ServiceMap) => void }) {
  return (
    <div className="map-form">
      {MAP_SECTIONS.map((section) => (
        <fieldset key={section.title} className="map-section">
          <legend>{section.title}</legend>
          {section.fields.map((field) => {
            const evidence = evidenceFor(detection, field.key);
            const low = evidence !== null && confidenceLevel(evidence.confidence) === 'low';
            return (
              <label key={field.key} className={low ? 'map-field map-field-low' : 'map-field'}>
                <span className="map-field-label">
                  {field.label} <ConfidenceBadge evidence={evidence} />
                </span>
                <FieldInput field={field} map={map} onChange={onChange} />
                {evidence ? <span className="map-evidence">{evidence.evidence}</span> : field.hint ? <span className="map-evidence">{field.hint}</span> : null}
              </label>
            );
          })}
        </fieldset>
      ))}
      <LookupEditor map={map} onChange={onChange} />
      <StatesEditor map={map} detection={detection} onChange={onChange} />
    </div>
  );
}

function LookupEditor({ map, onChange }: { map: ServiceMap; onChange: (m: ServiceMap) => void }) {
  const lookup = map.lookupByReference;
  return (
    <fieldset className="map-section">
      <legend>Find a purchase by its reference</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={lookup !== null}
          onChange={(e) => onChange({ ...map, lookupByReference: e.target.checked ? { in: 'query', name: 'client_reference', items: 'items' } : null })}
        />
        The service can look purchases up by the registration's reference (purchase info)
      </label>
      {lookup ? (
        <>
          <label className="map-field">
            <span className="map-field-label">Sent in</span>
            <select
              className="input"
              value={lookup.in}
              onChange={(e) => onChange({ ...map, lookupByReference: { ...lookup, in: e.target.value as 'query' | 'body' } })}
            >
              <option value="query">query</option>
              <option value="body">body</option>
            </select>
          </label>
          <label className="map-field">
            <span className="map-field-label">Name</span>
            <input className="input mono" value={lookup.name} onChange={(e) => onChange({ ...map, lookupByReference: { ...lookup, name: e.target.value } })} />
          </label>
          <label className="map-field">
            <span className="map-field-label">Items</span>
            <input
              className="input mono"
              value={lookup.items ?? ''}
              placeholder="none"
              onChange={(e) => onChange({ ...map, lookupByReference: { ...lookup, items: e.target.value.trim() === '' ? null : e.target.value } })}
            />
          </label>
        </>
      ) : null}
    </fieldset>
  );
}

const ACTION_LABEL: Record<(typeof PURCHASE_ACTIONS)[number], string> = {
  purchaseInfo: 'info',
  validatePurchase: 'validate',
  downloadUrl: 'download URL',
  viewUrl: 'view URL',
  cancelPurchase: 'cancel',
};

function StatesEditor({ map, detection, onChange }: { map: ServiceMap; detection: Detection | null; onChange: (m: ServiceMap) => void }) {
  const setWord = (i: number, patch: Partial<ServiceMap['states'][number]>) =>
    onChange({ ...map, states: map.states.map((w, j) => (j === i ? { ...w, ...patch } : w)) });
  const evidence = evidenceFor(detection, 'states');
  return (
    <details className="map-section map-states" open={map.states.length <= 6}>
      <summary>
        Purchase state words ({map.states.length}) <ConfidenceBadge evidence={evidence} />
      </summary>
      <p className="map-evidence">
        The service's own words (compared without case), what each means, and which actions it allows. A word not listed here offers every action with a
        warning.
      </p>
      {map.states.map((w, i) => (
        <div key={i} className="map-state-row">
          <input className="input mono" aria-label={`State word ${i + 1}`} value={w.word} onChange={(e) => setWord(i, { word: e.target.value })} />
          <select
            className="input"
            aria-label={`Meaning of ${w.word || `state ${i + 1}`}`}
            value={w.state}
            onChange={(e) => setWord(i, { state: e.target.value as (typeof CANONICAL_STATES)[number] })}
          >
            {CANONICAL_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <span className="map-actions">
            {PURCHASE_ACTIONS.map((a) => (
              <label key={a} className="check small">
                <input
                  type="checkbox"
                  checked={w.actions.includes(a)}
                  onChange={(e) => setWord(i, { actions: e.target.checked ? [...w.actions, a] : w.actions.filter((x) => x !== a) })}
                />
                {ACTION_LABEL[a]}
              </label>
            ))}
          </span>
          <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => onChange({ ...map, states: map.states.filter((_, j) => j !== i) })}>
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn btn-small"
        onClick={() => onChange({ ...map, states: [...map.states, { word: '', state: 'other', actions: ['purchaseInfo'] }] })}
      >
        Add a state word
      </button>
    </details>
  );
}
