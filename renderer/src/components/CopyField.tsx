/** A result URL: read-only, copyable, and opened in the system browser only on request. */
import { useState } from 'react';
import { useId } from 'react';

export function CopyField({ label, value, onOpen }: { label: string; value: string; onOpen?: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // Clipboard can be refused (no permission, no focus): select the text so Ctrl+C works.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      setCopied('failed');
    }
    setTimeout(() => setCopied(null), 2000);
  };
  return (
    <div className="copy-field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="copy-row">
        <input id={id} className="input mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="btn" onClick={() => void copy()}>
          Copy
        </button>
        {onOpen ? (
          <button type="button" className="btn" onClick={onOpen}>
            Open in browser
          </button>
        ) : null}
      </div>
      <span className="muted small" role="status" aria-live="polite">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copy was refused: the text is selected, press Ctrl+C.' : ''}
      </span>
    </div>
  );
}
