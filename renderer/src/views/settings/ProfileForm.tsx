/** Add or edit a vendor profile: each field says what is wrong with it; tokens go main-ward only, shown masked. */
import { useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { CallRequest } from '../../../../shared/bridge/contract';
import { DEFAULT_ID_FIELD, DEFAULT_PAGE_SIZE_PARAM } from '../../../../shared/catalog';
import type { ProfileView } from '../../api/queries';
import { ErrorCallout } from '../../components/states';
import type { FieldProblems, OtherProfile, ProfileField } from './profile-validation';
import { validateProfile } from './profile-validation';

type ProfileInput = CallRequest<'saveProfile'>;

export function ProfileForm({
  profile,
  others,
  saving,
  error,
  onSave,
  onCancel,
  focusOnOpen = false,
}: {
  profile: ProfileView | null;
  /** Every profile (to refuse a duplicate name). */
  others: readonly OtherProfile[];
  saving: boolean;
  error: unknown;
  onSave: (input: ProfileInput) => void;
  onCancel: () => void;
  /** Opened from a link elsewhere (the first-run card): scrolled into view, its first field focused. */
  focusOnOpen?: boolean;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!focusOnOpen) return;
    formRef.current?.scrollIntoView({ block: 'center' });
    formRef.current?.querySelector('input')?.focus({ preventScroll: true });
  }, []);
  const [name, setName] = useState(profile?.name ?? '');
  const [vendor, setVendor] = useState(profile?.vendor ?? '');
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? 'https://');
  const [newTokens, setNewTokens] = useState<string[]>(['']);
  // Lost tokens (memory-only, from before a restart) are useless: removed when the profile is saved.
  const [removeIds, setRemoveIds] = useState<Set<string>>(new Set((profile?.tokens ?? []).filter((t) => t.lost).map((t) => t.id)));
  const [header, setHeader] = useState(profile?.tokenPresentation.header ?? 'Authorization');
  // A saved profile's own scheme, none shown as empty (not the default: saving would then add one it never had).
  const [scheme, setScheme] = useState(profile ? (profile.tokenPresentation.scheme ?? '') : 'Bearer');
  const [pageSizeParam, setPageSizeParam] = useState(profile?.pageSizeParam ?? DEFAULT_PAGE_SIZE_PARAM);
  const [idField, setIdField] = useState(profile?.idField ?? DEFAULT_ID_FIELD);
  // Shown masked as the view gives it; sent only when changed, so the stored password stays.
  const [budgetStore, setBudgetStore] = useState(profile?.budgetStore ?? '');
  const [problems, setProblems] = useState<FieldProblems>({});

  const typed = newTokens.map((t) => t.trim()).filter((t) => t !== '');
  const kept = (profile?.tokens ?? []).filter((t) => !removeIds.has(t.id)).length;

  const submit = (form: HTMLFormElement) => {
    const found = validateProfile(
      { id: profile?.id ?? null, name, vendor, baseUrl, header, pageSizeParam, idField, budgetStore, tokenCount: kept + typed.length },
      others,
    );
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) {
      form.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    const presentation = { header: header.trim(), scheme: scheme.trim() === '' ? null : scheme.trim() };
    const edited = (value: unknown, shown: unknown): boolean => profile === null || JSON.stringify(value) !== JSON.stringify(shown);
    onSave({
      id: profile?.id,
      name: name.trim(),
      vendor: vendor.trim(),
      baseUrl: baseUrl.trim(),
      addTokens: typed,
      removeTokenIds: [...removeIds],
      // What the form changed, of a saved profile: a value saved elsewhere since it opened (another window, a name
      // the service taught) is not put back by a field nobody touched.
      ...(edited(presentation, profile?.tokenPresentation) ? { tokenPresentation: presentation } : {}),
      ...(edited(pageSizeParam.trim(), profile?.pageSizeParam) ? { pageSizeParam: pageSizeParam.trim() } : {}),
      ...(edited(idField.trim(), profile?.idField) ? { idField: idField.trim() } : {}),
      ...(budgetStore.trim() !== (profile?.budgetStore ?? '') ? { budgetStore: budgetStore.trim() } : {}),
    });
  };

  /** The field's problem under it, tied to the input by aria-describedby. */
  const problemOf = (field: ProfileField): { invalid: boolean; describedBy: string | undefined; note: ReactNode } => {
    const text = problems[field];
    return {
      invalid: text !== undefined,
      describedBy: text ? `${id}-${field}-problem` : undefined,
      note: text ? (
        <span id={`${id}-${field}-problem`} className="field-problem">
          {text}
        </span>
      ) : null,
    };
  };
  const inputProps = (field: ProfileField) => {
    const p = problemOf(field);
    return { 'data-field': field, 'aria-invalid': p.invalid || undefined, 'aria-describedby': p.describedBy };
  };

  return (
    <form
      ref={formRef}
      className="form form-card profile-form"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit(e.currentTarget);
      }}
    >
      <h3 id={`${id}-title`} className="detail-section">
        {profile ? `Edit ${profile.name}` : 'New profile'}
      </h3>
      <label className="field">
        <span className="field-label">Name</span>
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} {...inputProps('name')} />
        {problemOf('name').note}
      </label>
      <label className="field">
        <span className="field-label">Vendor</span>
        <input className="input" value={vendor} onChange={(e) => setVendor(e.target.value)} maxLength={80} {...inputProps('vendor')} />
        {problemOf('vendor').note}
      </label>
      <label className="field field-wide">
        <span className="field-label">Base URL</span>
        <input className="input mono" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} type="url" {...inputProps('baseUrl')} />
        {problemOf('baseUrl').note}
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
              {t.lost ? <span className="text-warn small"> · forgotten at the last restart: enter it again below</span> : null}
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
            {...(i === 0 ? inputProps('tokens') : {})}
          />
        ))}
        {problemOf('tokens').note}
        <button type="button" className="btn btn-small" onClick={() => setNewTokens([...newTokens, ''])}>
          Add another token
        </button>
      </fieldset>
      <label className="field">
        <span className="field-label">Token header</span>
        <input className="input mono" value={header} onChange={(e) => setHeader(e.target.value)} {...inputProps('header')} />
        {problemOf('header').note}
      </label>
      <label className="field">
        <span className="field-label">Scheme (empty: bare token)</span>
        <input className="input mono" value={scheme} onChange={(e) => setScheme(e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">Page-size parameter</span>
        <input className="input mono" value={pageSizeParam} onChange={(e) => setPageSizeParam(e.target.value)} {...inputProps('pageSizeParam')} />
        {problemOf('pageSizeParam').note}
      </label>
      <label className="field">
        <span className="field-label">Cursor id field</span>
        <input className="input mono" value={idField} onChange={(e) => setIdField(e.target.value)} {...inputProps('idField')} />
        {problemOf('idField').note}
      </label>
      {/* A div, not a label around it all: the hint is the input's description, not part of its name. */}
      <div className="field field-wide">
        <label className="field-label" htmlFor={`${id}-budgetStore`}>
          Budget store (optional)
        </label>
        <input
          id={`${id}-budgetStore`}
          className="input mono"
          value={budgetStore}
          onChange={(e) => setBudgetStore(e.target.value)}
          placeholder="redis://host:6379/0"
          autoComplete="off"
          spellCheck={false}
          {...inputProps('budgetStore')}
          aria-describedby={[problemOf('budgetStore').describedBy, `${id}-budgetStore-hint`].filter(Boolean).join(' ')}
        />
        {problemOf('budgetStore').note}
        <span id={`${id}-budgetStore-hint`} className="muted small">
          Every copy and worker of this vendor that names the same Redis shares its budget: each request reserves its slot there first. <code>machine</code>:
          the same through a file, for the processes on this computer (catalog exports use it unless told otherwise). Empty: pace from the rate-limit headers
          alone. A password in the URL is kept and shown masked.
        </span>
      </div>
      {Object.keys(problems).length > 0 ? (
        <div className="callout callout-error field-wide" role="alert">
          The profile was not saved: {Object.keys(problems).length === 1 ? 'one field needs' : `${Object.keys(problems).length} fields need`} attention (marked
          above).
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
