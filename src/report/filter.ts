/**
 * The rows behind a capped list of the report: `vas-verify filter OUT.csv --where COL=V1,V2
 * [--where COL!=V] [--line]` reads a run's enriched CSV and writes its header and the rows that
 * meet every condition; `--line` puts the file's line first, the numbering the report shows. The
 * page prints the exact command for each list it cuts short (LIST_FILTERS).
 */
import fs from 'node:fs';
import { ownColumn, ownStatusColumn, readOutputRecords } from '../output/read.js';
import { stringify } from 'csv-stringify/sync';
import { UsageError } from '../errors.js';
import { shellQuote } from '../shell-quote.js';

/** The conditions of each list the report caps (`decision` and `decision_reason` are output columns like any other). */
export const LIST_FILTERS = {
  held: ['decision=HOLD'],
  review: ['decision=REVIEW'],
  notVerified: ['verify_status=NOT_VERIFIED,INVALID'],
  mismatchedPaid: ['verify_status=VERIFIED', 'name_match=POOR_PARTIAL_MATCH,NO_MATCH', 'decision=PAY'],
  atRisk: ['verify_status=VERIFIED', 'name_match=POOR_PARTIAL_MATCH,NO_MATCH'],
  changed: ['changed_since!='],
  deferred: ['verify_status=DEFERRED'],
  failed: ['verify_status=FAILED'],
  unconfirmed: ['verify_status=UNCONFIRMED'],
} as const satisfies Record<string, readonly string[]>;

/** Records searched for the output's header (the input's header is found within its first 20 lines). */
const HEADER_SEARCH_RECORDS = 25;
/** Rows written to the sink at once. */
const BATCH_ROWS = 1_000;

export interface Condition {
  column: string;
  /** `=`: the cell is one of `values`; `!=`: it is none of them. */
  negate: boolean;
  values: ReadonlySet<string>;
}

/** `COL=V1,V2` or `COL!=V1,V2` (`COL!=` alone: the cell is not empty). */
export function parseCondition(text: string): Condition {
  const match = /^([^=!]+?)(!?)=(.*)$/s.exec(text);
  if (!match) throw new UsageError(`--where ${text}: write COLUMN=VALUE[,VALUE…] or COLUMN!=VALUE (COLUMN!= for "not empty")`);
  return { column: match[1]!.trim(), negate: match[2] === '!', values: new Set(match[3]!.split(',')) };
}

/** A word as the shell reads it: the one quoting of every printed command (src/shell-quote.ts). */
export const shellWord = shellQuote;

/** The command that lists every row of a capped list from the enriched CSV, each with its line as the page numbers it (null: not known, a placeholder). */
export function filterCommand(csv: string | null, where: readonly string[]): string {
  return ['vas-verify', 'filter', csv === null ? '<the enriched CSV>' : shellWord(csv), ...where.flatMap((w) => ['--where', shellWord(w)]), '--line'].join(' ');
}

/** The column `--line` puts first: the file's line of each row (the header's, for the header). */
export const LINE_COLUMN = 'line';

/** Where each condition's column is: the tool's own (`ownColumn`: `vas_` when renamed) before an input column of that name. */
function locate(header: readonly string[], conditions: readonly Condition[]): number[] {
  return conditions.map((c) => {
    const appended = ownColumn(header, c.column);
    const at = appended >= 0 ? appended : header.indexOf(c.column);
    if (at < 0) throw new UsageError(`--where: the CSV has no column ${c.column}`);
    return at;
  });
}

function meets(record: readonly string[], conditions: readonly Condition[], at: readonly number[]): boolean {
  return conditions.every((c, i) => c.values.has(record[at[i]!] ?? '') !== c.negate);
}

function isHeader(record: readonly string[]): boolean {
  return ownStatusColumn(record) >= 0;
}

/**
 * Streams `csvPath` and hands `write` its header and every row meeting `conditions`, in
 * batches of CSV text; with `line`, each led by its line in the file. Returns the number of rows written.
 */
export async function filterRows(csvPath: string, conditions: readonly Condition[], write: (text: string) => void, options: { line?: boolean } = {}): Promise<number> {
  if (!fs.existsSync(csvPath)) throw new UsageError(`${csvPath} does not exist: give the enriched CSV the run wrote (-o)`);
  let at: number[] | undefined;
  let seen = 0;
  let count = 0;
  let batch: string[][] = [];
  const lead = (record: string[], line: number | string) => (options.line ? [String(line), ...record] : record);
  for await (const { fields: record, line } of readOutputRecords(csvPath)) {
    if (!at) {
      seen += 1;
      if (isHeader(record)) {
        at = locate(record, conditions);
        write(stringify([lead(record, LINE_COLUMN)]));
      } else if (seen >= HEADER_SEARCH_RECORDS) {
        throw new UsageError(`${csvPath} is not an output of vas-verify bank (no verify_status column in its first ${HEADER_SEARCH_RECORDS} records)`);
      }
      continue;
    }
    if (!meets(record, conditions, at)) continue;
    batch.push(lead(record, line));
    count += 1;
    if (batch.length >= BATCH_ROWS) {
      write(stringify(batch));
      batch = [];
    }
  }
  if (!at) throw new UsageError(`${csvPath} is not an output of vas-verify bank (no verify_status column)`);
  if (batch.length > 0) write(stringify(batch));
  return count;
}
