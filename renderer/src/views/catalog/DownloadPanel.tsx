/** Whole-catalog download: one request at a time by last_id, pausable and resumable, with progress and ETA. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/context';
import type { DownloadProgress } from '../../api/queries';
import { keys, shownProfile, useAppInfo, useDownloadStatus, useInterruptedDownload, useProfile } from '../../api/queries';
import { CopyField } from '../../components/CopyField';
import { ErrorCallout } from '../../components/states';
import { Pill } from '../../components/Pill';
import type { Tone } from '../../components/Pill';
import { ProgressBar } from '../../components/ProgressBar';
import { DASH, fmtBytes, fmtDuration, fmtInt, fmtMs, fmtRate } from '../../lib/format';

type Format = DownloadProgress['format'];
type DownloadAction = 'start' | 'start-over' | 'resume-file' | 'pause' | 'resume' | 'cancel';

const STATE_LABEL: Record<DownloadProgress['state'], [string, Tone]> = {
  idle: ['Not started', 'neutral'],
  running: ['Downloading', 'info'],
  paused: ['Paused', 'warn'],
  done: ['Complete', 'ok'],
  failed: ['Failed', 'danger'],
  cancelled: ['Cancelled', 'neutral'],
};

export function DownloadPanel() {
  const api = useApi();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const status = useDownloadStatus(profile);
  const info = useAppInfo();
  // null until chosen here: the last download's format shows (also after leaving the view and coming back).
  const [chosen, setFormat] = useState<Format | null>(null);
  const p = status.data;
  const interrupted = useInterruptedDownload(profile, p?.state).data ?? null;
  const format: Format = chosen ?? p?.format ?? 'jsonl';
  const reveal = useMutation({ mutationFn: (action: 'show' | 'open') => api.downloadReveal({ action }) });

  const act = useMutation({
    // The profile whose catalog the page showed at the click: a download never starts for another one.
    mutationFn: ({ action, profileShown }: { action: DownloadAction; profileShown: typeof profile }) => {
      switch (action) {
        case 'start':
          return api.downloadStart({ profileId: shownProfile(profileShown), format, resume: false });
        case 'start-over':
          return api.downloadStart({ profileId: shownProfile(profileShown), format: interrupted?.format ?? format, resume: false, replace: true });
        case 'resume-file':
          return api.downloadStart({ profileId: shownProfile(profileShown), format, resume: true });
        case 'pause':
          return api.downloadPause({ profileId: shownProfile(profileShown) });
        case 'resume':
          return api.downloadResume({ profileId: shownProfile(profileShown) });
        case 'cancel':
          return api.downloadCancel({ profileId: shownProfile(profileShown), deleteFiles: false });
      }
    },
    onSuccess: (progress, { profileShown }) => queryClient.setQueryData(keys.downloadOf(profileShown), progress),
    // Whatever happened, what is left on disk may have changed.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: [...keys.download, 'interrupted'] }),
  });
  const run = (action: DownloadAction) => act.mutate({ action, profileShown: profile });

  const state = p?.state ?? 'idle';
  const active = state === 'running' || state === 'paused';
  // Left by a quit or a disconnect: offered to resume, and a plain start never replaces it unasked.
  const waiting = !active && interrupted !== null;
  const [label, tone] = waiting && state === 'idle' ? (['Interrupted', 'warn'] as const) : STATE_LABEL[state];
  const busy = act.isPending;
  // One download runs at a time: another profile's is named here, and only that profile pauses or cancels it.
  const other = p?.otherProfile ?? null;

  return (
    <section className="panel download" aria-label="Download whole catalog">
      <div className="download-head">
        <h2 className="section-title">Download whole catalog</h2>
        <Pill tone={tone}>{label}</Pill>
        <div className="download-controls">
          <label className="inline-field">
            <span>Format</span>
            <select
              className="input"
              aria-label="Format"
              value={p && active ? p.format : waiting ? interrupted.format : format}
              onChange={(e) => setFormat(e.target.value as Format)}
              disabled={active || waiting}
            >
              <option value="jsonl">JSON Lines</option>
              <option value="csv">CSV</option>
            </select>
          </label>
          {waiting ? (
            <>
              <button type="button" className="btn btn-primary" disabled={busy || other !== null} onClick={() => run('resume')}>
                Resume
              </button>
              <button
                type="button"
                className="btn"
                disabled={busy || other !== null}
                onClick={() => run('start-over')}
                title="Replace the interrupted file with a new download"
              >
                Start over
              </button>
            </>
          ) : !active ? (
            <button type="button" className="btn btn-primary" disabled={busy || other !== null} onClick={() => run('start')}>
              Start download
            </button>
          ) : null}
          {state === 'running' ? (
            <button type="button" className="btn" disabled={busy} onClick={() => run('pause')}>
              Pause
            </button>
          ) : null}
          {state === 'paused' ? (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => run('resume')}>
              Resume
            </button>
          ) : null}
          {(state === 'failed' || state === 'cancelled') && p && p.pages > 0 ? (
            <button type="button" className="btn" disabled={busy} onClick={() => run('resume-file')} title="Continue from the last page written">
              Resume from last page
            </button>
          ) : null}
          {active ? (
            <button type="button" className="btn btn-danger-ghost" disabled={busy} onClick={() => run('cancel')}>
              Cancel download
            </button>
          ) : null}
        </div>
      </div>

      {other ? (
        <p className="muted small" role="status">
          Another profile ({other.name}) is downloading its catalog; one download runs at a time. Pause or cancel it from that profile.
        </p>
      ) : null}
      {waiting && interrupted ? (
        <p className="muted small" role="status">
          A download of this catalog stopped at page {fmtInt(interrupted.pages)} ({fmtInt(interrupted.items)} items) when the app quit or the profile
          disconnected: <code className="mono">{interrupted.outPath}</code>. Resume goes on from that page; Start over replaces the file.
        </p>
      ) : null}
      {p && state !== 'idle' ? (
        <>
          <ProgressBar value={p.items} max={p.total} label="Catalog download progress" />
          <dl className="stats">
            <div>
              <dt>Items</dt>
              <dd>
                {fmtInt(p.items)}
                {p.total !== null ? <span className="muted"> / {fmtInt(p.total)}</span> : null}
              </dd>
            </div>
            <div>
              <dt>Pages</dt>
              <dd>{fmtInt(p.pages)}</dd>
            </div>
            <div>
              <dt>Rate</dt>
              <dd>{fmtRate(p.requestsPerSecond)} req/s</dd>
            </div>
            <div>
              <dt title="Time spent waiting for budget">Waited</dt>
              <dd>{fmtMs(p.waitedMs)}</dd>
            </div>
            <div>
              <dt>429s</dt>
              <dd className={p.rateLimited > 0 ? 'text-warn' : undefined}>{fmtInt(p.rateLimited)}</dd>
            </div>
            <div>
              <dt>ETA</dt>
              <dd>{state === 'done' ? 'done' : state === 'running' ? fmtDuration(p.etaSeconds) : DASH}</dd>
            </div>
            <div>
              <dt>Written</dt>
              <dd>{fmtBytes(p.bytes)}</dd>
            </div>
          </dl>
          {p.sharing ? (
            <p className="muted small" role="status">
              Waiting for the shared budget: {p.sharing.message}. The download goes on by itself.
            </p>
          ) : null}
          {p.outPath && info.data?.shell === 'web' ? (
            <CopyField label={state === 'done' ? 'Saved to (on the computer running browser mode)' : 'Writing to'} value={p.outPath} />
          ) : p.outPath ? (
            <div className="file-actions">
              <span className="muted">{state === 'done' ? 'Saved to' : 'Writing to'}</span> <code className="mono">{p.outPath}</code>
              <button type="button" className="btn btn-small" disabled={reveal.isPending} onClick={() => reveal.mutate('show')}>
                Show in folder
              </button>
              {state === 'done' ? (
                <button type="button" className="btn btn-small" disabled={reveal.isPending} onClick={() => reveal.mutate('open')}>
                  Open
                </button>
              ) : null}
            </div>
          ) : null}
          {reveal.isError ? <ErrorCallout error={reveal.error} /> : null}
          {p.error ? <ErrorCallout error={p.error} action="download" /> : null}
        </>
      ) : waiting ? null : (
        <p className="muted small">
          Reads every page in sequence with last_id (100 per page), one request at a time, staying inside the 20 requests/s budget; a download can be paused and
          resumed.
        </p>
      )}
      {act.isError ? <ErrorCallout error={act.error} action="download" /> : null}
      {status.isError ? <ErrorCallout error={status.error} onRetry={() => void status.refetch()} /> : null}
    </section>
  );
}
