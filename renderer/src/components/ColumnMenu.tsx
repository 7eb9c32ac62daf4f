/** The table's column chooser: show or hide each column, move it left or right, or go back to the defaults. */
import type { Table } from '@tanstack/react-table';
import { useEffect, useRef, useState } from 'react';

function headerText<T>(table: Table<T>, id: string): string {
  const column = table.getColumn(id);
  const header = column?.columnDef.header;
  return typeof header === 'string' ? header : id;
}

export function ColumnMenu<T>({ table, label, dropped, onReset }: { table: Table<T>; label: string; dropped: readonly string[]; onReset: () => void }) {
  // The list is built only while open: the table renders with every live update, the menu is rarely looked at.
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDetailsElement>(null);
  // As any menu: Esc closes it (focus back on its button), and so does a click anywhere else.
  useEffect(() => {
    const details = ref.current;
    if (!open || !details) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      details.open = false;
      details.querySelector('summary')?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (e.target instanceof Node && !details.contains(e.target)) details.open = false;
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
    };
  }, [open]);
  const order = open ? table.getAllLeafColumns().map((c) => c.id) : [];
  const move = (id: string, by: -1 | 1) => {
    const next = [...order];
    const at = next.indexOf(id);
    const to = at + by;
    if (to < 0 || to >= next.length) return;
    [next[at], next[to]] = [next[to]!, next[at]!];
    table.setColumnOrder(next);
  };
  return (
    <details ref={ref} className="dt-columns" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="dt-columns-button" aria-label={`Columns of ${label}`} title="Choose columns">
        <span aria-hidden="true">⋮</span>
      </summary>
      {open ? (
        <div className="dt-columns-menu" role="group" aria-label={`Columns of ${label}`}>
          {table.getAllLeafColumns().map((column, i) => (
            <div key={column.id} className="dt-columns-row">
              <label>
                <input type="checkbox" checked={column.getIsVisible()} disabled={!column.getCanHide()} onChange={column.getToggleVisibilityHandler()} />
                {headerText(table, column.id)}
                {dropped.includes(column.id) ? <span className="muted small"> (no room)</span> : null}
              </label>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                disabled={i === 0}
                onClick={() => move(column.id, -1)}
                aria-label={`Move ${headerText(table, column.id)} left`}
              >
                ←
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                disabled={i === order.length - 1}
                onClick={() => move(column.id, 1)}
                aria-label={`Move ${headerText(table, column.id)} right`}
              >
                →
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-small" onClick={onReset}>
            Reset columns and sort
          </button>
        </div>
      ) : null}
    </details>
  );
}
