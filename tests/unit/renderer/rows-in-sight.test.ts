/// <reference types="node" />
/**
 * A live virtual list (the Requests view) must not keep entries the log let go: rows made for the
 * entries in sight hold the table options (and so the data) of the update that made them.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { createTable, getCoreRowModel } from '@tanstack/react-table';
import type { ColumnDef, Table } from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import { RowsInSight } from '../../../renderer/src/components/rows-in-sight';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

interface Entry {
  id: number;
  path: string;
}

const columns: ColumnDef<Entry>[] = [
  { id: 'id', accessorFn: (e) => e.id },
  { id: 'path', accessorFn: (e) => e.path },
];

function liveTable(): Table<Entry> {
  return createTable<Entry>({
    data: [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
  });
}

describe('RowsInSight', () => {
  it('makes a row once per data array and again for the next one', () => {
    const table = liveTable();
    const rows = new RowsInSight(table);
    const data = [{ id: 1, path: '/a' }];
    const first = rows.row(data, 0, '1');
    expect(first?.original).toBe(data[0]);
    expect(rows.row(data, 0, '1')).toBe(first);
    expect(rows.row([...data], 0, '1')).not.toBe(first);
    expect(rows.row(data, 5, '6')).toBeUndefined();
  });

  it('lets entries go once the log evicts them, after hundreds of updates with their rows in sight', async () => {
    const table = liveTable();
    const rows = new RowsInSight(table);
    const kept: Entry[] = [];
    let next = 0;
    let firstEntry: WeakRef<Entry> | null = null;
    // Like the Requests view: each update a new array of the newest entries (bounded), new table
    // options holding it (as every render does), and rows made for the 40 in sight.
    const update = () => {
      for (let i = 0; i < 20; i++) kept.push({ id: next, path: `/assets/list?last_id=${next++}` });
      if (kept.length > 500) kept.splice(0, kept.length - 500);
      firstEntry ??= new WeakRef(kept[0]!);
      const data = [...kept].reverse();
      table.setOptions((prev) => ({ ...prev, data }));
      for (let i = 0; i < Math.min(40, data.length); i++) rows.row(data, i, String(data[i]!.id));
    };
    for (let k = 0; k < 300; k++) update();
    for (let i = 0; i < 5 && firstEntry!.deref() !== undefined; i++) {
      await new Promise((r) => setTimeout(r, 0));
      gc();
    }
    expect(firstEntry!.deref()).toBeUndefined();
  });
});
