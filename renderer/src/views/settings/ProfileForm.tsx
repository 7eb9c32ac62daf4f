import { useId, useState } from 'react';
import type { CallRequest } from '../../../../shared/bridge/contract';
import { DEFAULT_ID_FIELD, DEFAULT_PAGE_SIZE_PARAM } from '../../../../shared/catalog';
import type { ProfileView } from '../../api/queries';
import { ErrorCallout } from '../../components/states';

type ProfileInput = CallRequest<'saveProfile'>;

export function ProfileForm({
  profile,
  saving,
  error,
  onSave,
  onCancel,
}: {
  profile: ProfileView | null;
  saving: boolean;
  error: unknown;
  onSave: (input: ProfileInput) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(profile?.name ?? '');
  const [vendor, setVendor] = useState(profile?.vendor ?? '');
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? 'https://');
  const [newTokens, setNewTokens] = useState<string[]>(['']);
  const [removeIds, setRemoveIds] = useState<Set<string>>(new Set());
  const [header, setHeader] = useState(profile?.tokenPresentation.header ?? 'Authorization');
  const [scheme, setScheme] = useState(profile?.tokenPresentation.scheme ?? 'Bearer');
  const [pageSizeParam, setPageSizeParam] = useState(profile?.pageSizeParam ?? DEFAULT_PAGE_SIZE_PARAM);
  const [idField, setIdField] = useState(profile?.idField ?? DEFAULT_ID_FIELD);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    try {
      const url = new URL(baseUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      setProblem('The base URL must be an http(s) address, e.g. https://partner.example.com/api.');
      return;
    }
    if (!name.trim() || !vendor.trim()) {
      setProblem('A name and a vendor are required.');
      return;
    }
    setProblem(null);
    onSave({
      id: profile?.id,
      name: name.trim(),
      vendor: vendor.trim(),
      baseUrl: baseUrl.trim(),
      addTokens: newTokens.map((t) => t.trim()).filter((t) => t !== ''),
      removeTokenIds: [...removeIds],
      tokenPresentation: { header: header.trim(), scheme: scheme.trim() === '' ? null : scheme.trim() },
      pageSizeParam: pageSizeParam.trim(),
      idField: idField.trim(),
    });
  };

  return (
    <form
      className="form form-card"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3 id={`${id}-title`} className="detail-section">
        {profile ? `Edit ${profile.name}` : 'New profile'}
      </h3>
      <label className="field">
        <span className="field-label">Name</span>
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} />
      </label>
      <label className="field">
        <span className="field-label">Vendor</span>
        <input className="input" value={vendor} onChange={(e) => setVendor(e.target.value)} required maxLength={80} />
      </label>
      <label className="field field-wide">
        <span className="field-label">Base URL</span>
        <input className="input mono" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} required type="url" />
      </label>
      {profile && profile.tokens.length > 0 ? (
        <fieldset className="field field-wide fieldset">
          <legend className="field-label">Stored tokens (masked)</legend>
          {profile.tokens.map((t) => (
            <label key={t.id} className="check">
              <input
                type="checkbox"
                checked={removeIds.has(t.id)}
                onChange={(e) => {
                  const next = new Set(removeIds);
                  if (e.target.checked) next.add(t.id);
                  else next.delete(t.id);
                  setRemoveIds(next);
                }}
              />
              <span className="mono">{t.masked}</span> <span className="muted small">remove</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <fieldset className="field field-wide fieldset">
        <legend className="field-label">Add tokens (all tokens of a vendor share one budget)</legend>
        {newTokens.map((t, i) => (
          <input
            key={i}
            className="input mono"
            type="password"
            autoComplete="off"
            aria-label={`New token ${i + 1}`}
            value={t}
            onChange={(e) => setNewTokens(newTokens.map((v, j) => (j === i ? e.target.value : v)))}
          />
        ))}
        <button type="button" className="btn btn-small" onClick={() => setNewTokens([...newTokens, ''])}>
          Add another token
        </button>
      </fieldset>
      <label className="field">
        <span className="field-label">Token header</span>
        <input className="input mono" value={header} onChange={(e) => setHeader(e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">Scheme (empty: bare token)</span>
        <input className="input mono" value={scheme} onChange={(e) => setScheme(e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">Page-size parameter</span>
        <input className="input mono" value={pageSizeParam} onChange={(e) => setPageSizeParam(e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">Cursor id field</span>
        <input className="input mono" value={idField} onChange={(e) => setIdField(e.target.value)} />
      </label>
      {problem ? (
        <div className="callout callout-error field-wide" role="alert">
          {problem}
        </div>
      ) : null}
      {error ? (
        <div className="field-wide">
          <ErrorCallout error={error} />
        </div>
      ) : null}
      <div className="form-actions field-wide">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          Save profile
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
