/**
 * Which line is the header and which columns hold the account number, the IFSC and the payee's
 * name (docs/ARCHITECTURE.md, "Layout", src/input/). Pure: it is handed the first records of the
 * file and returns its choice with the reasons, or throws a ColumnError that says what to do.
 * Modelled on fast-csv's HeaderTransformer: one small class, one job, tested alone.
 */
import { ColumnError } from '../errors.js';
import { headerKey, headerMeaning, RANK_ORDER, type Rank, type Role } from './aliases.js';

export interface ColumnOverrides {
  account?: string | undefined;
  ifsc?: string | undefined;
  name?: string | undefined;
}

export interface ColumnMap {
  account: number;
  ifsc: number;
  /** -1 when the file has no name column (name matching is then left out). */
  name: number;
}

/** A record as the readers give it: its fields and the 1-based line where it starts. */
export interface SourceRecord {
  fields: string[];
  line: number;
}

export interface HeaderChoice {
  /** Index of the header among the records handed in (records before it are the preamble). */
  headerIndex: number;
  /** 1-based line of the header in the file. */
  headerLine: number;
  header: string[];
  columns: ColumnMap;
  /** The headers taken, for the summary. */
  names: { account: string; ifsc: string; name: string | null };
  /** One line per choice, for the run log. */
  reasons: string[];
}

export interface RecogniserOptions {
  overrides?: ColumnOverrides | undefined;
  /** `--header-row N`: the header is the record starting at line N. */
  headerRow?: number | undefined;
}

/** The header is looked for within this many lines. */
export const HEADER_SEARCH_LINES = 20;
/** Data rows looked at for the content checks. */
export const SAMPLE_ROWS = 20;
/** An account column with one value on at least this many rows (and every sampled row) is a debit account. */
export const CONSTANT_ACCOUNT_MIN_ROWS = 3;


/** Longest header shown in a message: a damaged file can have a header of megabytes. */
const HEADER_SHOWN_CHARS = 40;

export function listHeaders(headers: readonly string[]): string {
  const shown = headers
    .slice(0, 30)
    .map((h) => JSON.stringify(h.length > HEADER_SHOWN_CHARS ? `${h.slice(0, HEADER_SHOWN_CHARS)}…` : h))
    .join(', ');
  return headers.length > 30 ? `${shown}, … (${headers.length} in all)` : shown || '(none)';
}

const ROLES: readonly Role[] = ['account', 'ifsc', 'name'];
const FLAGS: Readonly<Record<Role, string>> = { account: '--account-col', ifsc: '--ifsc-col', name: '--name-col' };
const WHAT: Readonly<Record<Role, string>> = { account: 'account number', ifsc: 'IFSC', name: 'payee name' };

interface Candidate {
  index: number;
  header: string;
  rank: Rank | 'explicit';
  why: string;
}

function isBlank(fields: readonly string[]): boolean {
  return fields.every((f) => f.trim() === '');
}

function quoteFlag(role: Role, header: string): string {
  return `${FLAGS[role]} ${JSON.stringify(header)}`;
}

/** IFSC-shaped, leniently: a letter O for the zero is still an IFSC column (the row check says why it fails). */
const IFSC_SHAPE = /^[A-Z]{4}[0O][A-Z0-9]{6}$/;

export class HeaderRecogniser {
  private readonly overrides: ColumnOverrides;
  private readonly headerRow: number | undefined;

  constructor(options: RecogniserOptions = {}) {
    this.overrides = options.overrides ?? {};
    this.headerRow = options.headerRow;
  }

  /**
   * `records`: the file's first records, blank lines included, through at least SAMPLE_ROWS data
   * rows after the header (or to the end of the file).
   */
  recognise(records: readonly SourceRecord[]): HeaderChoice {
    if (records.every((r) => isBlank(r.fields))) throw new ColumnError('input has no header row');
    const headerIndex = this.findHeader(records);
    const header = records[headerIndex]!.fields;
    const reasons: string[] = [];
    const found = {} as Record<Role, Candidate | undefined>;
    for (const role of ROLES) found[role] = this.choose(role, header, reasons);
    const missing = (['account', 'ifsc'] as const).filter((role) => !found[role]);
    if (missing.length > 0) throw new ColumnError(this.missingMessage(missing, header, records, headerIndex));
    const sample = records.slice(headerIndex + 1).filter((r) => !isBlank(r.fields)).slice(0, SAMPLE_ROWS);
    this.checkContent(found.account!, found.ifsc!, found.name, sample);
    const line = records[headerIndex]!.line;
    reasons.unshift(`header found at line ${line}${this.headerRow === undefined ? '' : ' (--header-row)'}${headerIndex > 0 ? `; the ${headerIndex} line(s) above it are copied to the output unchanged` : ''}`);
    return {
      headerIndex,
      headerLine: line,
      header,
      columns: { account: found.account!.index, ifsc: found.ifsc!.index, name: found.name?.index ?? -1 },
      names: { account: found.account!.header, ifsc: found.ifsc!.header, name: found.name?.header ?? null },
      reasons,
    };
  }

  /** The first line (of the first 20) that has an account and an IFSC column, or the forced one. */
  private findHeader(records: readonly SourceRecord[]): number {
    if (this.headerRow !== undefined) {
      const index = records.findIndex((r) => r.line === this.headerRow);
      if (index < 0 || isBlank(records[index]!.fields)) {
        throw new ColumnError(`--header-row ${this.headerRow}: line ${this.headerRow} is ${index < 0 ? 'not the start of a record in the first lines of the input' : 'blank'}`);
      }
      return index;
    }
    for (let i = 0; i < records.length && records[i]!.line <= HEADER_SEARCH_LINES; i += 1) {
      const fields = records[i]!.fields;
      if (isBlank(fields)) continue;
      if (this.hasRole('account', fields) && this.hasRole('ifsc', fields)) return i;
    }
    // None has both: report on the line that came closest (the first non-blank one if none did).
    let best = records.findIndex((r) => !isBlank(r.fields));
    let bestScore = 0;
    for (let i = 0; i < records.length && records[i]!.line <= HEADER_SEARCH_LINES; i += 1) {
      const score = ROLES.filter((role) => this.candidates(role, records[i]!.fields).length > 0).length;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }

  private hasRole(role: 'account' | 'ifsc', fields: readonly string[]): boolean {
    return this.candidates(role, fields).some((c) => c.rank !== 'payer');
  }

  /** Every column that could hold `role`, with its rank; the named one alone when a flag names it. */
  private candidates(role: Role, header: readonly string[]): Candidate[] {
    const named = this.overrides[role];
    if (named !== undefined) {
      let index = header.indexOf(named);
      if (index < 0) index = header.findIndex((h) => h.trim() === named.trim());
      if (index < 0 && headerKey(named) !== '') index = header.findIndex((h) => headerKey(h) === headerKey(named));
      return index < 0 ? [] : [{ index, header: header[index]!, rank: 'explicit', why: `named by ${FLAGS[role]}` }];
    }
    const out: Candidate[] = [];
    header.forEach((h, index) => {
      const meaning = headerMeaning(h);
      if (meaning?.role === role) out.push({ index, header: h, rank: meaning.rank, why: meaning.why });
    });
    return out;
  }

  private choose(role: Role, header: readonly string[], reasons: string[]): Candidate | undefined {
    const named = this.overrides[role];
    const all = this.candidates(role, header);
    if (named !== undefined) {
      if (all.length === 0) throw new ColumnError(`${FLAGS[role]} "${named}" is not a column of the input; headers found: ${listHeaders(header)}`);
      const chosen = all[0]!;
      const twins = header.flatMap((h, i) => (h === chosen.header ? [i + 1] : []));
      if (twins.length > 1) {
        throw new ColumnError(`header ${JSON.stringify(chosen.header)} names ${twins.length} columns (${twins.join(', ')}): rename all but one so that it is clear which one to use (${FLAGS[role]} cannot tell them apart)`);
      }
      reasons.push(`${WHAT[role]}: column ${chosen.index + 1} ${JSON.stringify(chosen.header)}, named by ${FLAGS[role]}`);
      return chosen;
    }
    const usable = all.filter((c) => c.rank !== 'payer');
    if (usable.length === 0) return undefined;
    const top = Math.max(...usable.map((c) => RANK_ORDER[c.rank as Rank]));
    const best = usable.filter((c) => RANK_ORDER[c.rank as Rank] === top);
    if (best.length > 1) {
      const same = best.every((c) => c.header === best[0]!.header);
      const list = best.map((c) => `${JSON.stringify(c.header)} (column ${c.index + 1})`).join(', ');
      throw new ColumnError(
        same
          ? `header ${JSON.stringify(best[0]!.header)} names ${best.length} columns (${best.map((c) => c.index + 1).join(', ')}): rename all but one so that it is clear which one to use (${FLAGS[role]} cannot tell them apart)`
          : `${best.length} columns could be the ${WHAT[role]}: ${list}; nothing tells them apart, so nothing was called. Name the right one, e.g. ${quoteFlag(role, best[0]!.header)}`,
      );
    }
    const chosen = best[0]!;
    const others = all.filter((c) => c !== chosen);
    const passed = others.length === 0 ? '' : `; not ${others.map((c) => `${JSON.stringify(c.header)} (${c.rank === 'payer' ? "the payer's own" : c.rank})`).join(', ')}`;
    reasons.push(`${WHAT[role]}: column ${chosen.index + 1} ${JSON.stringify(chosen.header)}, ${chosen.why}${passed}`);
    return chosen;
  }

  private missingMessage(missing: readonly ('account' | 'ifsc')[], header: readonly string[], records: readonly SourceRecord[], headerIndex: number): string {
    const what = missing.map((role) => `no ${WHAT[role]} column (use ${FLAGS[role]})`).join(' and ');
    const payer = missing.flatMap((role) => this.candidates(role, header).filter((c) => c.rank === 'payer'));
    const payerNote = payer.length === 0
      ? ''
      : `; ${payer.map((c) => JSON.stringify(c.header)).join(', ')} look(s) like the payer's own account, not the payees' (name it with ${FLAGS.account} if it is not)`;
    const searched = this.headerRow === undefined
      ? `; header below line ${HEADER_SEARCH_LINES}? give --header-row N`
      : '';
    const line = records[headerIndex]!.line;
    return `input has ${what}${payerNote}; headers found: ${listHeaders(header)}${line > 1 ? ` (line ${line})` : ''}${searched}`;
  }

  /** The first rows of the chosen columns must look like what they are said to be (unless named). */
  private checkContent(account: Candidate, ifsc: Candidate, name: Candidate | undefined, sample: readonly SourceRecord[]): void {
    if (ifsc.rank !== 'explicit') {
      const values = sample.map((r) => (r.fields[ifsc.index] ?? '').trim().toUpperCase().replace(/\s+/g, '')).filter((v) => v !== '');
      const shaped = values.filter((v) => IFSC_SHAPE.test(v.replace(/^="?|"$|^'/g, ''))).length;
      if (values.length > 0 && shaped * 2 < values.length) {
        const examples = values.slice(0, 3).map((v) => JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)).join(', ');
        throw new ColumnError(
          `column ${JSON.stringify(ifsc.header)} was taken as the IFSC column, but ${values.length - shaped} of its first ${values.length} value(s) are not IFSC-shaped (e.g. ${examples}): nothing was called. Name the IFSC column with --ifsc-col "<header>"`,
        );
      }
    }
    if (account.rank !== 'explicit') {
      const rows = sample.filter((r) => (r.fields[account.index] ?? '').trim() !== '');
      const values = rows.map((r) => r.fields[account.index]!.replace(/[\s-]/g, ''));
      // One payee repeated (same IFSC, same name) is a run of duplicates; one account beside
      // payees that differ is the payer's.
      const varies = (index: number | undefined) => index !== undefined && new Set(rows.map((r) => (r.fields[index] ?? '').trim().toUpperCase())).size > 1;
      if (values.length >= CONSTANT_ACCOUNT_MIN_ROWS && values.every((v) => v === values[0]) && (varies(ifsc.index) || varies(name?.index))) {
        const masked = values[0]!.length <= 4 ? '****' : `…${values[0]!.slice(-4)}`;
        throw new ColumnError(
          `column ${JSON.stringify(account.header)} holds the same account (${masked}) on each of the first ${values.length} rows: it looks like the payer's own debit account, not the payees'. Nothing was called. Name the payee account column with --account-col "<header>" (naming ${JSON.stringify(account.header)} itself runs it as it is)`,
        );
      }
    }
  }
}

/** The columns of a header line alone (no header search, no content checks): for callers with a known header. */
export function resolveColumns(headers: readonly string[], overrides: ColumnOverrides = {}): ColumnMap {
  return new HeaderRecogniser({ overrides, headerRow: 1 }).recognise([{ fields: [...headers], line: 1 }]).columns;
}

/**
 * An output column whose name an input column already has is written as `vas_<name>`
 * (again prefixed until it is free). Returns the names to write and the renames made.
 */
export function renameClashes(header: readonly string[], appended: readonly string[]): { columns: string[]; renamed: Record<string, string> } {
  const taken = new Set(header.map((h) => h.trim().toLowerCase()));
  const renamed: Record<string, string> = {};
  const columns = appended.map((name) => {
    if (!taken.has(name.toLowerCase())) return name;
    let next = `vas_${name}`;
    while (taken.has(next.toLowerCase())) next = `vas_${next}`;
    renamed[name] = next;
    return next;
  });
  return { columns, renamed };
}
