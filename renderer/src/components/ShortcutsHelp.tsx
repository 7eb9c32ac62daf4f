/** The `?` overlay: every keyboard shortcut, in a native modal dialog (Escape closes it). */
import { useEffect, useRef } from 'react';
import { SHORTCUT_LIST } from '../lib/shortcuts';

export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog shortcuts" aria-labelledby="shortcuts-title" onClose={onClose} onClick={(e) => e.target === ref.current && onClose()}>
      <h2 id="shortcuts-title" className="dialog-title">
        Keyboard shortcuts
      </h2>
      <table className="table table-compact shortcuts-table" aria-label="Keyboard shortcuts">
        <tbody>
          {SHORTCUT_LIST.map((s) => (
            <tr key={s.what}>
              <td>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? <span className="muted"> or </span> : null}
                    {k.split(' ').map((part, j) => (
                      <kbd key={j}>{part}</kbd>
                    ))}
                  </span>
                ))}
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </dialog>
  );
}
