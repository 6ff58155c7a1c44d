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

/**
 * Reads `csvPath` (an output of `vas-verify bank`). Undefined when it has no name-match column
 * (the input had no name column) or is not such an output.
 */
export async function scanOutput(csvPath: string, listCap: number, overrides: ColumnOverrides = {}): Promise<OutputScan | undefined> {
  let col: Columns | undefined;
  let records = 0;
  let notOurs = false;
  const nameMatch: Record<string, number> = {};
  const items: AtRiskRow[] = [];
  let total = 0;

  const onRecord = (record: string, line: number) => {
    if (!col) {
      records += 1;
      const fields = fieldsOf(record);
      const at = Math.max(fields.lastIndexOf('verify_status'), fields.lastIndexOf('vas_verify_status'));
      if (at < 0) {
        if (records >= HEADER_SEARCH_RECORDS) notOurs = true;
        return;
      }
      const find = (name: string) => {
        const i = fields.indexOf(name, at);
        return i >= 0 ? i : fields.indexOf(`vas_${name}`, at);
      };
      const match = find('name_match');
      if (match < 0) {
        notOurs = true;
        return;
      }
      let input;
      try {
        input = resolveColumns(fields.slice(0, at), overrides);
      } catch {
        input = { account: -1, ifsc: -1, name: -1 };
      }
      col = { status: at, match, score: find('name_match_score'), beneficiary: find('beneficiary_name'), ...input };
      return;
    }
    const fields = fieldsOf(record);
    const verdict = fields[col.match] ?? '';
    if (verdict === '') return;
    nameMatch[verdict] = (nameMatch[verdict] ?? 0) + 1;
    if (fields[col.status] !== 'VERIFIED' || !AT_RISK_VERDICTS.has(verdict)) return;
    total += 1;
    if (items.length >= listCap) return;
    const cell = (i: number) => (i >= 0 ? fields[i] ?? '' : '');
    items.push({
      line,
      account: maskAccountNumber(cell(col.account)),
      ifsc: cell(col.ifsc).trim().toUpperCase(),
      expectedName: cell(col.name),
      beneficiaryName: cell(col.beneficiary),
      verdict,
      score: cell(col.score),
    });
  };

  const stream = fs.createReadStream(csvPath, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let rest = '';
  let line = 0;
  let pending = '';
  let pendingLine = 0;
  let open = false;
  const take = (raw: string) => {
    line += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (open) {
      pending += `\n${text}`;
    } else {
      pending = line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      pendingLine = line;
    }
    if (quotesIn(text) % 2 === 1) open = !open;
    if (!open) {
      if (pending !== '' || col) onRecord(pending, pendingLine);
      pending = '';
    }
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      const text = rest + chunk;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        take(text.slice(start, end));
        start = end + 1;
        if (notOurs) return undefined;
      }
      rest = text.slice(start);
    }
    if (rest !== '') take(rest);
    if (open && pending !== '') onRecord(pending, pendingLine);
  } finally {
    stream.destroy();
  }
  return col && !notOurs ? { nameMatch, atRisk: { items, total } } : undefined;
}
