import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '../../api/context';
import type { Settings } from '../../api/queries';
import { keys, useSettings } from '../../api/queries';
import { DEFAULT_GIVE_UP_AFTER_MINUTES, GIVE_UP_AFTER_MINUTES } from '../../../../shared/background-work';
import { ErrorCallout, Loading } from '../../components/states';

export function PreferencesPanel() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const [draft, setDraft] = useState<Settings | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);

  const save = useMutation({
    mutationFn: (patch: Partial<Settings>) => api.saveSettings(patch),
    onSuccess: (s) => queryClient.setQueryData(keys.settings, s),
  });

  if (settings.isPending)
    return (
      <section className="panel settings-card">
        <Loading />
      </section>
    );
  if (settings.isError || !draft) {
    return (
      <section className="panel settings-card">
        <ErrorCallout error={settings.error} onRetry={() => void settings.refetch()} />
      </section>
    );
  }
  const dirty = JSON.stringify(draft) !== JSON.stringify(settings.data);
  return (
    <section className="panel settings-card" aria-labelledby="prefs-title">
      <h2 id="prefs-title" className="section-title">
        Preferences
      </h2>
      <form
        className="form prefs-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(draft);
        }}
      >
        <label className="field">
          <span className="field-label">Theme</span>
          <select
            className="input"
            value={draft.theme}
            onChange={(e) => {
              const theme = e.target.value as Settings['theme'];
              setDraft({ ...draft, theme });
              save.mutate({ theme }); // applied at once, like a system setting
            }}
          >
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">Catalog page size</span>
          <input
            className="input"
            type="number"
            min={1}
            max={100}
            value={draft.pageSize}
            onChange={(e) => setDraft({ ...draft, pageSize: Number(e.target.value) })}
          />
        </label>
        <label className="field">
          <span className="field-label">Request timeout (seconds)</span>
          <input
            className="input"
            type="number"
            min={1}
            max={120}
            value={Math.round(draft.timeoutMs / 1000)}
            onChange={(e) => setDraft({ ...draft, timeoutMs: Number(e.target.value) * 1000 })}
          />
        </label>
        <label
          className="field"
          title="Downloads and background pages wait through 429s while the vendor's budget moves for anyone; they stop only when nothing went through for this long."
        >
          <span className="field-label">Give up background work after (min)</span>
          <input
            className="input"
            type="number"
            min={GIVE_UP_AFTER_MINUTES.min}
            max={GIVE_UP_AFTER_MINUTES.max}
            value={draft.giveUpAfterMinutes ?? DEFAULT_GIVE_UP_AFTER_MINUTES}
            onChange={(e) => setDraft({ ...draft, giveUpAfterMinutes: Number(e.target.value) })}
          />
        </label>
        <label className="field field-wide prefs-folder">
          <span className="field-label">Download folder</span>
          <input className="input mono" value={draft.downloadDir} onChange={(e) => setDraft({ ...draft, downloadDir: e.target.value })} />
        </label>
        <div className="form-actions field-wide">
          <button type="submit" className="btn btn-primary" disabled={!dirty || save.isPending}>
            Save preferences
          </button>
          {save.isSuccess && !dirty ? (
            <span className="muted small" role="status">
              Saved.
            </span>
          ) : null}
        </div>
        {save.isError ? <ErrorCallout error={save.error} /> : null}
      </form>
    </section>
  );
}
