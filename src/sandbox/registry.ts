/**
 * The `--accounts` registry: known holders that override generated names and statuses, so a
 * team can replay its own payee list against the sandbox and get the names it expects.
 */
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.js';
import { sniffDelimiter } from '../input/read-csv.js';
import { IFSC_PATTERN } from './ifsc.js';

/** One known account; an empty `ifsc` matches the account number at any branch. */
export interface RegistryEntry {
  accountNumber: string;
  ifsc: string;
  name: string;
  status?: 'VERIFIED' | 'NOT_VERIFIED';
}

const ACCOUNT_PATTERN = /^\d{9,18}$/;

// Header aliases, compared after lower-casing and dropping everything but letters and digits.
const COLUMN_ALIASES = {
  accountNumber: ['accountnumber', 'account', 'accountno', 'accno', 'acno', 'bankaccount'],
  ifsc: ['ifsc', 'ifscnumber', 'ifsccode', 'ifscno'],
  name: ['name', 'beneficiaryname', 'holder', 'holdername', 'accountholder', 'payeename'],
  status: ['status', 'verificationstatus'],
} as const;
type Column = keyof typeof COLUMN_ALIASES;

const simplify = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function looksLikeHeader(fields: readonly string[]): boolean {
  const first = simplify(fields[0] ?? '');
  return (COLUMN_ALIASES.accountNumber as readonly string[]).includes(first) || !/^\d/.test(fields[0] ?? '');
}

function headerPositions(fields: readonly string[], line: number): Record<Column, number | undefined> {
  const simplified = fields.map(simplify);
  const find = (column: Column): number | undefined => {
    const index = simplified.findIndex((name) => (COLUMN_ALIASES[column] as readonly string[]).includes(name));
    return index === -1 ? undefined : index;
  };
  const positions = { accountNumber: find('accountNumber'), ifsc: find('ifsc'), name: find('name'), status: find('status') };
  for (const required of ['accountNumber', 'ifsc', 'name'] as const) {
    if (positions[required] === undefined) {
      throw new InputError(`registry line ${line}: header has no ${required} column (expected accountNumber,ifsc,name[,status])`);
    }
  }
  return positions;
}

function toStatus(raw: string, line: number): RegistryEntry['status'] {
  const normalised = raw.trim().toUpperCase().replace(/[\s-]+/g, '_');
  if (normalised === '') return undefined;
  if (normalised === 'VERIFIED' || normalised === 'NOT_VERIFIED') return normalised;
  throw new InputError(`registry line ${line}: status "${raw}" must be VERIFIED or NOT_VERIFIED`);
}

/** Checks and normalises one entry (IFSC upper-cased); `where` prefixes error messages. */
export function checkRegistryEntry(entry: RegistryEntry, where: string): RegistryEntry {
  const accountNumber = entry.accountNumber.trim();
  const ifsc = entry.ifsc.trim().toUpperCase();
  const name = entry.name.trim();
  if (!ACCOUNT_PATTERN.test(accountNumber)) {
    throw new InputError(`${where}: account number "${entry.accountNumber}" must be 9 to 18 digits`);
  }
  if (ifsc !== '' && !IFSC_PATTERN.test(ifsc)) {
    throw new InputError(`${where}: IFSC "${entry.ifsc}" is not a valid IFSC (4 letters, 0, 6 letters or digits)`);
  }
  if (name === '' && entry.status !== 'NOT_VERIFIED') {
    throw new InputError(`${where}: name is empty (only NOT_VERIFIED entries may omit it)`);
  }
  const checked: RegistryEntry = { accountNumber, ifsc, name };
  if (entry.status !== undefined) checked.status = entry.status;
  return checked;
}

/**
 * Parses registry CSV text: `accountNumber,ifsc,name[,status]`, header optional (recognised by
 * its column names, in any order), the delimiter (`,` `;` tab `|`) sniffed. Throws an Error naming the line of the first bad row.
 */
export function loadRegistry(csvText: string): RegistryEntry[] {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(csvText, {
      // `;` where Excel's list separator is one, tab-separated text: as the payee file is read.
      delimiter: sniffDelimiter(csvText.replace(/^\uFEFF/, '')),
      info: true,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      comment: '#',
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    throw new InputError(`registry is not valid CSV: ${(error as Error).message}`, { cause: error });
  }

  let positions: Record<Column, number | undefined> = { accountNumber: 0, ifsc: 1, name: 2, status: 3 };
  const entries: RegistryEntry[] = [];
  rows.forEach(({ record, info }, index) => {
    const line = info.lines;
    if (index === 0 && looksLikeHeader(record)) {
      positions = headerPositions(record, line);
      return;
    }
    const field = (column: Column): string => {
      const at = positions[column];
      return at === undefined ? '' : (record[at] ?? '');
    };
    if (record.length < 3) {
      throw new InputError(`registry line ${line}: expected accountNumber,ifsc,name[,status] but found ${record.length} field(s)`);
    }
    const status = toStatus(field('status'), line);
    const entry: RegistryEntry = { accountNumber: field('accountNumber'), ifsc: field('ifsc'), name: field('name') };
    if (status !== undefined) entry.status = status;
    entries.push(checkRegistryEntry(entry, `registry line ${line}`));
  });
  return entries;
}

/** Lookup by account number, preferring an entry for the exact IFSC over an any-branch one. */
export class Registry {
  private readonly byAccount = new Map<string, RegistryEntry[]>();

  constructor(entries: readonly RegistryEntry[]) {
    entries.forEach((entry, index) => {
      const checked = checkRegistryEntry(entry, `accounts[${index}]`);
      const list = this.byAccount.get(checked.accountNumber) ?? [];
      list.unshift(checked); // later entries win
      this.byAccount.set(checked.accountNumber, list);
    });
  }

  get size(): number {
    return this.byAccount.size;
  }

  find(accountNumber: string, ifsc: string): RegistryEntry | undefined {
    const list = this.byAccount.get(accountNumber);
    if (list === undefined) return undefined;
    return list.find((entry) => entry.ifsc === ifsc) ?? list.find((entry) => entry.ifsc === '');
  }
}
