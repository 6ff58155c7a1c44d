/**
 * The run's enriched CSV, read once for what the state does not keep: the payee name of the
 * file and the name-match verdict of each row. Gives the rows paid at risk (VERIFIED, but the
 * holder's name is a POOR_PARTIAL_MATCH or NO_MATCH) and the counts by verdict.
 *
 * Fast path, because a 1M-row output is read at the end of every run with --report: records are
 * cut at line ends (a line with an odd number of quotes continues the record), a record without
 * quotes is split on commas, and only records with quotes go through csv-parse.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { resolveColumns, type ColumnOverrides } from '../input/recognise.js';
import { maskAccountNumber } from './escape.js';
import type { AtRiskRow, CappedList } from './model.js';

export const AT_RISK_VERDICTS: ReadonlySet<string> = new Set(['POOR_PARTIAL_MATCH', 'NO_MATCH']);

/** Records searched for the output's header (the input's header is found within its first 20 lines). */
const HEADER_SEARCH_RECORDS = 25;

export interface OutputScan {
  nameMatch: Record<string, number>;
  atRisk: CappedList<AtRiskRow>;
}

interface Columns {
  status: number;
  match: number;
  score: number;
  beneficiary: number;
  account: number;
  ifsc: number;
  name: number;
}

function fieldsOf(record: string): string[] {
  if (!record.includes('"')) return record.split(',');
  try {
    return (parse(record, { relax_column_count: true, relax_quotes: true }) as string[][])[0] ?? [];
  } catch {
    return record.split(',');
  }
}

function quotesIn(line: string): number {
  let n = 0;
  for (let i = line.indexOf('"'); i >= 0; i = line.indexOf('"', i + 1)) n += 1;
  return n;
}

/** Finds the output's header and its columns, then counts verdicts and keeps the rows paid at risk. */
class VerdictCounter {
  private col: Columns | undefined;
  private records = 0;
  /** The file is not an output of vas-verify bank, or has no name-match column. */
  notOurs = false;
  readonly nameMatch: Record<string, number> = {};
  readonly items: AtRiskRow[] = [];
  total = 0;

  constructor(
    private readonly listCap: number,
    private readonly overrides: ColumnOverrides,
  ) {}

  get found(): boolean {
    return this.col !== undefined;
  }

  take(record: string, line: number): void {
    if (this.col) this.count(fieldsOf(record), line, this.col);
    else this.findHeader(record);
  }

  private findHeader(record: string): void {
    this.records += 1;
    const fields = fieldsOf(record);
    const at = Math.max(fields.lastIndexOf('verify_status'), fields.lastIndexOf('vas_verify_status'));
    if (at < 0) {
      if (this.records >= HEADER_SEARCH_RECORDS) this.notOurs = true;
      return;
    }
    const find = (name: string) => {
      const i = fields.indexOf(name, at);
      return i >= 0 ? i : fields.indexOf(`vas_${name}`, at);
    };
    const match = find('name_match');
    if (match < 0) {
      this.notOurs = true;
      return;
    }
    let input;
    try {
      input = resolveColumns(fields.slice(0, at), this.overrides);
    } catch {
      input = { account: -1, ifsc: -1, name: -1 };
    }
    this.col = { status: at, match, score: find('name_match_score'), beneficiary: find('beneficiary_name'), ...input };
  }

  private count(fields: string[], line: number, col: Columns): void {
    const verdict = fields[col.match] ?? '';
    if (verdict === '') return;
    this.nameMatch[verdict] = (this.nameMatch[verdict] ?? 0) + 1;
    if (fields[col.status] !== 'VERIFIED' || !AT_RISK_VERDICTS.has(verdict)) return;
    this.total += 1;
    if (this.items.length >= this.listCap) return;
    const cell = (i: number) => (i >= 0 ? fields[i] ?? '' : '');
    this.items.push({
      line,
      account: maskAccountNumber(cell(col.account)),
      ifsc: cell(col.ifsc).trim().toUpperCase(),
      expectedName: cell(col.name),
      beneficiaryName: cell(col.beneficiary),
      verdict,
      score: cell(col.score),
    });
  }
}

/**
 * Lines into records: a line with an odd number of quotes opens (or closes) a quoted cell, and
 * the record goes on to the next line. Hands each record, with its first line's number, on.
 */
class RecordJoiner {
  private line = 0;
  private pending = '';
  private pendingLine = 0;
  private open = false;

  constructor(private readonly onRecord: (record: string, line: number) => void) {}

  take(raw: string): void {
    this.line += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.open) {
      this.pending += `\n${text}`;
    } else {
      this.pending = this.line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      this.pendingLine = this.line;
    }
    if (quotesIn(text) % 2 === 1) this.open = !this.open;
    if (!this.open) {
      this.onRecord(this.pending, this.pendingLine);
      this.pending = '';
    }
  }

  /** The end of the file: a record left open is taken as it is. */
  end(): void {
    if (this.open && this.pending !== '') this.onRecord(this.pending, this.pendingLine);
  }
}

/** Calls `take` with each line of the file; stops early when `stop()` says so. */
async function eachLine(csvPath: string, take: (line: string) => void, stop: () => boolean): Promise<void> {
  const stream = fs.createReadStream(csvPath, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let rest = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      const text = rest + chunk;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        take(text.slice(start, end));
        start = end + 1;
        if (stop()) return;
      }
      rest = text.slice(start);
    }
    if (rest !== '') take(rest);
  } finally {
    stream.destroy();
  }
}

/**
 * Reads `csvPath` (an output of `vas-verify bank`). Undefined when it has no name-match column
 * (the input had no name column) or is not such an output.
 */
export async function scanOutput(csvPath: string, listCap: number, overrides: ColumnOverrides = {}): Promise<OutputScan | undefined> {
  const counter = new VerdictCounter(listCap, overrides);
  // Empty records before the header are skipped (blank lines above it).
  const joiner = new RecordJoiner((record, line) => {
    if (record !== '' || counter.found) counter.take(record, line);
  });
  await eachLine(csvPath, (line) => joiner.take(line), () => counter.notOurs);
  if (counter.notOurs) return undefined;
  joiner.end();
  return counter.found && !counter.notOurs ? { nameMatch: counter.nameMatch, atRisk: { items: counter.items, total: counter.total } } : undefined;
}
