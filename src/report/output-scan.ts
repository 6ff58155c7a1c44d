/**
 * The run's enriched CSV, read once for what the state does not keep: the payee name of the
 * file and the name-match verdict of each row. Gives the rows paid at risk (VERIFIED, but the
 * holder's name is a POOR_PARTIAL_MATCH or NO_MATCH) and the counts by verdict.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse';
import { resolveColumns, type ColumnOverrides } from '../pipeline/columns.js';
import { maskAccountNumber } from './escape.js';
import type { AtRiskRow, CappedList } from './model.js';

export const AT_RISK_VERDICTS: ReadonlySet<string> = new Set(['POOR_PARTIAL_MATCH', 'NO_MATCH']);

/** Lines searched for the output's header (the input's header is found within its first 20). */
const HEADER_SEARCH_LINES = 25;

export interface OutputScan {
  nameMatch: Record<string, number>;
  atRisk: CappedList<AtRiskRow>;
}

/**
 * Reads `csvPath` (an output of `vas-verify bank`). Undefined when it has no name-match column
 * (the input had no name column) or is not such an output.
 */
export async function scanOutput(csvPath: string, listCap: number, overrides: ColumnOverrides = {}): Promise<OutputScan | undefined> {
  const parser = fs.createReadStream(csvPath).pipe(
    parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, info: true }),
  );
  let col: { status: number; match: number; score: number; beneficiary: number; account: number; ifsc: number; name: number } | undefined;
  const nameMatch: Record<string, number> = {};
  const items: AtRiskRow[] = [];
  let total = 0;
  let seen = 0;
  try {
    for await (const entry of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const fields = entry.record;
      if (!col) {
        seen += 1;
        const at = Math.max(fields.lastIndexOf('verify_status'), fields.lastIndexOf('vas_verify_status'));
        if (at < 0) {
          if (seen >= HEADER_SEARCH_LINES) return undefined;
          continue;
        }
        const find = (name: string) => {
          const i = fields.indexOf(name, at);
          return i >= 0 ? i : fields.indexOf(`vas_${name}`, at);
        };
        const match = find('name_match');
        if (match < 0) return undefined;
        let input;
        try {
          input = resolveColumns(fields.slice(0, at), overrides);
        } catch {
          input = { account: -1, ifsc: -1, name: -1 };
        }
        col = { status: at, match, score: find('name_match_score'), beneficiary: find('beneficiary_name'), ...input };
        continue;
      }
      const verdict = fields[col.match] ?? '';
      if (verdict === '') continue;
      nameMatch[verdict] = (nameMatch[verdict] ?? 0) + 1;
      if (fields[col.status] !== 'VERIFIED' || !AT_RISK_VERDICTS.has(verdict)) continue;
      total += 1;
      if (items.length >= listCap) continue;
      const cell = (i: number) => (i >= 0 ? fields[i] ?? '' : '');
      items.push({
        line: entry.info.lines,
        account: maskAccountNumber(cell(col.account)),
        ifsc: cell(col.ifsc).trim().toUpperCase(),
        expectedName: cell(col.name),
        beneficiaryName: cell(col.beneficiary),
        verdict,
        score: cell(col.score),
      });
    }
  } finally {
    parser.destroy();
  }
  return col ? { nameMatch, atRisk: { items, total } } : undefined;
}
