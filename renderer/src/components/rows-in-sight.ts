/**
 * Rows of a virtual list, made on demand for the entries in sight and kept for one data array only.
 * A TanStack Row keeps the table options of the moment it was made (its memos' debug closures), and
 * those hold that moment's data. Kept across updates per entry, each row would hold an older data
 * array, whose entries hold older rows, and so on: a chain that kept every entry a live list ever had
 * (the Requests view grew 0.7 MB/s at full traffic). Making the ~40 rows in sight again after an
 * update costs little.
 */
import { createRow } from '@tanstack/react-table';
import type { Row, Table } from '@tanstack/react-table';

export class RowsInSight<T> {
  private data: readonly T[] | null = null;
  private rows = new Map<T, Row<T>>();

  constructor(private readonly table: Table<T>) {}

  /** The row of `data[index]` (with id `id`), made once per data array. */
  row(data: readonly T[], index: number, id: string): Row<T> | undefined {
    if (data !== this.data) {
      this.data = data;
      this.rows = new Map();
    }
    const original = data[index];
    if (original === undefined) return undefined;
    let row = this.rows.get(original);
    if (!row) this.rows.set(original, (row = createRow(this.table, id, original, index, 0)));
    return row;
  }
}
