/**
 * The run's enriched file (CSV or .xlsx, read through src/output/read.ts), read once for what the
 * state does not keep: the payee name of the file and the name-match verdict of each row. Gives
 * the verified rows whose name does not match (the holder's name is a POOR_PARTIAL_MATCH or NO_MATCH) and
 * the counts by verdict. A run that keeps its decisions in the state (schema 7) is reported from
 * the state alone: this scan serves the runs before it.
 */
import { neutralise } from '../pipeline/columns.js';
import { readOutputRecords } from '../output/read.js';
import { nameColumnsOf, nameIn, resolveColumns, type ColumnOverrides } from '../input/recognise.js';
import { maskAccountNumber } from './escape.js';
import type { AtRiskRow, CappedList } from './model.js';

export const AT_RISK_VERDICTS: ReadonlySet<string> = new Set(['POOR_PARTIAL_MATCH', 'NO_MATCH']);

/**
 * A cell of the tool's own columns as the bank sent it: the output neutralised it for spreadsheets
 * (`'=1+2`), the page shows text, escaped. The quote goes only where neutralise put it — where
 * neutralising the rest gives the cell back — so a value that itself starts with a quote keeps it.
 */
export function asSent(cell: string): string {
  return cell.startsWith("'") && neutralise(cell.slice(1)) === cell ? cell.slice(1) : cell;
}

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
  /** A name split over columns (First, Last Name), joined as the run joined it (nameIn). */
  nameParts?: number[] | undefined;
}

/** Finds the output's header and its columns, then counts verdicts and keeps the verified rows whose name does not match. */
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

  take(fields: string[], line: number): void {
    if (this.col) this.count(fields, line, this.col);
    else this.findHeader(fields);
  }

  private findHeader(fields: string[]): void {
    this.records += 1;
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
      expectedName: nameIn(fields, nameColumnsOf(col)),
      beneficiaryName: asSent(cell(col.beneficiary)),
      verdict,
      score: cell(col.score),
    });
  }
}

/**
 * Reads `outputPath` (an output of `vas-verify bank`, CSV or .xlsx). Undefined when it has no
 * name-match column (the input had no name column) or is not such an output.
 */
export async function scanOutput(outputPath: string, listCap: number, overrides: ColumnOverrides = {}): Promise<OutputScan | undefined> {
  const counter = new VerdictCounter(listCap, overrides);
  for await (const { fields, line } of readOutputRecords(outputPath)) {
    // Empty records before the header are skipped (blank lines above it).
    if ((fields.length > 0 && !(fields.length === 1 && fields[0] === '')) || counter.found) counter.take(fields, line);
    if (counter.notOurs) return undefined;
  }
  return counter.found ? { nameMatch: counter.nameMatch, atRisk: { items: counter.items, total: counter.total } } : undefined;
}
