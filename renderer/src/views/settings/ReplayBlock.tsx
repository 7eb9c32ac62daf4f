/**
 * Replay a HAR file (an exported request log, or one from DevTools, Charles, Postman) into the built-in
 * simulator through the app's own client, at its recorded relative times, so that the Budget view shows
 * the incident's shape again. The file is read and checked here (shared/har-replay.ts); only its requests
 * (time, method, URL, body) go to main, which checks them again.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ENDPOINTS } from '../../../../shared/endpoints';
import { MAX_HAR_BYTES, readHarText } from '../../../../shared/har-replay';
import { useApi } from '../../api/context';
import { shownProfile, useProfile } from '../../api/queries';
import { Pill } from '../../components/Pill';
import { ErrorCallout } from '../../components/states';
import { fmtInt } from '../../lib/format';

const replayKey = ['simReplayStatus'] as const;

export function ReplayBlock() {
  const api = useApi();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const status = useQuery({
    queryKey: replayKey,
    queryFn: () => api.simReplayStatus({}),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 500 : false),
  });
  const start = useMutation({
    mutationFn: async (file: File) => {
      if (file.size > MAX_HAR_BYTES) throw new Error(`${file.name} is larger than ${MAX_HAR_BYTES / 1024 / 1024} MB; export a filtered part of the log.`);
      const read = readHarText(await file.text());
      if (!read.ok) throw new Error(`${file.name}: ${read.message}`);
      return api.simReplayHar({ profileId: shownProfile(profile), har: read.har });
    },
    onMutate: () => setProblem(null),
    onSuccess: (s) => queryClient.setQueryData(replayKey, s),
    onError: (e) => setProblem(e instanceof Error && !('data' in e) ? e.message : null),
  });
  const stop = useMutation({ mutationFn: () => api.simReplayStop({}), onSuccess: (s) => queryClient.setQueryData(replayKey, s) });
  const s = status.data ?? null;
  const running = s?.state === 'running';

  return (
    <fieldset className="sim-block">
      <legend className="sim-legend">Replay a HAR file</legend>
      <p className="muted small">
        Sends a HAR file's requests (an export of the Requests view, or one from Chrome DevTools, Charles or Postman) through the app's own client at their
        recorded times, so that the Budget view shows the incident again. Only the ten endpoints' requests are sent.
      </p>
      <div className="form-actions">
        <label className={running || start.isPending ? 'btn btn-primary file-button disabled' : 'btn btn-primary file-button'}>
          Replay HAR file…
          <input
            type="file"
            accept=".har,application/json"
            className="visually-hidden"
            aria-label="HAR file to replay"
            disabled={running || start.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) start.mutate(file);
            }}
          />
        </label>
        <button type="button" className="btn" disabled={!running || stop.isPending} onClick={() => stop.mutate()}>
          Stop replay
        </button>
        {s ? (
          <Pill tone={running ? 'info' : 'neutral'}>
            {running ? `replaying: ${fmtInt(s.sent)} of ${fmtInt(s.planned)} sent` : `${s.state}: ${fmtInt(s.finished)} of ${fmtInt(s.planned)}`}
          </Pill>
        ) : (
          <Pill>none yet</Pill>
        )}
      </div>
      {problem ? (
        <div className="callout callout-error" role="alert">
          {problem}
        </div>
      ) : start.isError ? (
        <ErrorCallout error={start.error} action="replay the HAR file" />
      ) : null}
      {stop.isError ? <ErrorCallout error={stop.error} action="stop the replay" /> : null}
      {s && s.endpoints.length > 0 ? (
        <p className="muted small" role="status">
          {(s.durationMs / 1000).toFixed(1)} s of recording ·{' '}
          {s.endpoints
            .map(
              (e) =>
                `${ENDPOINTS[e.endpoint].label}: ${e.sent}/${e.planned}${e.failed > 0 ? `, ${e.failed} failed` : ''}${e.rateLimited > 0 ? `, ${e.rateLimited}×429` : ''}`,
            )
            .join(' · ')}
          {s.skipped.notAnEndpoint + s.skipped.retries + s.skipped.bodyCut > 0
            ? ` · left out: ${s.skipped.notAnEndpoint} other URLs, ${s.skipped.retries} retries, ${s.skipped.bodyCut} with a body recorded cut`
            : ''}
        </p>
      ) : null}
    </fieldset>
  );
}
