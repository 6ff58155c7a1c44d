/**
 * Merged cells in a payee column (docs/ARCHITECTURE.md, "Layout", src/input/): a bank or payroll
 * export merges one IFSC or branch down a group of payees, and the file holds the value in the
 * merge's top-left cell only. The payee rows it covers read the top-left's value, in the merge's
 * first column only (a merge across columns holds that column's value), for the verification;
 * the record handed on is a copy, and an .xlsx output copies the input's cells as they were.
 * Only merges that start below the header and span rows are filled: a title merged across the
 * columns, or a header cell merged over two lines, is left as the header recogniser saw it.
 */
import type { CsvRecord } from './read-csv.js';
import type { MergeRange } from './xlsx-stream.js';

export class MergedCells {
  /** The merges to fill, by their top row; each leaves once the rows pass its bottom. */
  private readonly waiting: MergeRange[];
  /** Merges whose top row has been read, with the top-left's value. */
  private readonly open: Array<{ range: MergeRange; value: string }> = [];
  private readonly columns: readonly number[];

  /**
   * `columns`: the payee columns (account, IFSC, name); `headerLine`: the header's row — a merge
   * starting on it or above is not filled.
   */
  constructor(merges: readonly MergeRange[], columns: readonly number[], headerLine: number) {
    const wanted = columns.filter((c) => c >= 0);
    this.waiting = merges
      .filter((m) => m.bottom > m.top && m.top > headerLine && wanted.some((c) => c >= m.left && c <= m.right))
      .sort((a, b) => b.top - a.top);
    this.columns = wanted;
  }

  /** Whether there is anything to fill (a sheet without merges costs nothing). */
  get empty(): boolean {
    return this.waiting.length === 0 && this.open.length === 0;
  }

  /** The record with the payee cells a merge covers filled from its top-left; records come in row order. */
  fill(record: CsvRecord): CsvRecord {
    if (this.empty) return record;
    const line = record.line;
    for (let i = this.open.length - 1; i >= 0; i -= 1) if (this.open[i]!.range.bottom < line) this.open.splice(i, 1);
    while (this.waiting.length > 0 && this.waiting[this.waiting.length - 1]!.top <= line) {
      const range = this.waiting.pop()!;
      // A range whose top row the sheet leaves out (or past a gap not given back) holds nothing.
      if (range.top === line) this.open.push({ range, value: record.fields[range.left] ?? '' });
    }
    let fields: string[] | undefined;
    for (const { range, value } of this.open) {
      for (const c of this.columns) {
        // Only the merge's own column: a merge across columns (a name over A:B, a note over A:D)
        // holds the first column's value, which is no account or IFSC.
        if (c !== range.left || line === range.top) continue;
        if ((record.fields[c] ?? '').trim() !== '' || value === '') continue;
        fields ??= [...record.fields];
        while (fields.length <= c) fields.push('');
        fields[c] = value;
      }
    }
    return fields === undefined ? record : { ...record, fields };
  }
}
