/**
 * The shipped, dated list of IFSC codes (DESIGN.md §4 "Local checks"): which bank codes exist,
 * their names and facts, every branch code per bank, and the sublet codes sub-member banks use
 * through a sponsor bank. Built by scripts/build-ifsc-registry.ts from Razorpay's `ifsc` data
 * (MIT). Loaded once, lazily; the lookups are pure.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

/** The data file's shape (see the build script). */
export interface RegistryFile {
  format: 1;
  /** Package, version, licence and home of the data. */
  source: string;
  /** Publication date of that version, YYYY-MM-DD. */
  published: string;
  /** Issuing banks: type, UPI, numeric branch runs `n` and other branch codes `s`. */
  banks: Record<string, { type?: string; upi?: boolean; n: string; s: string }>;
  /** Type and UPI of sub-member banks (they issue no IFSCs of their own). */
  members: Record<string, { type?: string; upi?: boolean }>;
  /** Names of bank codes, sub-members included. */
  names: Record<string, string>;
  /** Full IFSC → the sub-member bank code that uses it. */
  sublets: Record<string, string>;
  /** IFSC prefix → sub-member bank code. */
  subletPrefixes: Record<string, string>;
}

export interface BankFacts {
  code: string;
  name: string | null;
  /** PSB, Private, Foreign, S-UCB, RRB… as the data says. */
  type: string | null;
  upi: boolean | null;
}

export type IfscStatus =
  /** The registry lists this branch. */
  | 'listed'
  /** A well-formed code of a known bank that the list lacks (the list lags new branches). */
  | 'unlisted-branch'
  /** No bank issues IFSCs under this code. */
  | 'unknown-bank'
  /** Not IFSC-shaped at all. */
  | 'malformed';

export interface IfscLookup {
  ifsc: string;
  status: IfscStatus;
  /** The bank the code belongs to (the sponsor for a sublet code). */
  bank: BankFacts | null;
  /** For a sublet code: the sub-member bank that really holds the account. */
  subletOf: BankFacts | null;
}

export const DEFAULT_REGISTRY_PATH = new URL('./data/ifsc-registry.json.gz', import.meta.url);

const IFSC_SHAPE = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** Distinct codes remembered (then forgotten all at once): bounds memory whatever the file. */
const LOOKUP_CACHE_SIZE = 50_000;

export class IfscRegistry {
  readonly source: string;
  readonly published: string;
  private readonly file: RegistryFile;
  /** Decoded branch sets, per bank, on first use. */
  private readonly decoded = new Map<string, { numbers: Set<number>; texts: Set<string> }>();
  /** Answers by code: a payee file repeats a few thousand IFSCs over many rows. */
  private readonly answers = new Map<string, IfscLookup>();

  constructor(file: RegistryFile) {
    this.file = file;
    this.source = file.source;
    this.published = file.published;
  }

  /** Every bank code that issues IFSCs. */
  get bankCodes(): string[] {
    return Object.keys(this.file.banks);
  }

  bank(code: string): BankFacts | null {
    const bank = this.file.banks[code] ?? this.file.members[code];
    const name = this.file.names[code];
    if (!bank && name === undefined) return null;
    return { code, name: name ?? null, type: bank?.type ?? null, upi: bank?.upi ?? null };
  }

  /** Whether `code` issues IFSCs (the first four characters of a valid IFSC). */
  isBank(code: string): boolean {
    return Object.hasOwn(this.file.banks, code);
  }

  lookup(raw: string): IfscLookup {
    let answer = this.answers.get(raw);
    if (!answer) {
      answer = this.find(raw);
      if (this.answers.size >= LOOKUP_CACHE_SIZE) this.answers.clear();
      this.answers.set(raw, answer);
    }
    return answer;
  }

  private find(raw: string): IfscLookup {
    const ifsc = raw.trim().toUpperCase();
    if (!IFSC_SHAPE.test(ifsc)) return { ifsc, status: 'malformed', bank: null, subletOf: null };
    const code = ifsc.slice(0, 4);
    if (!this.isBank(code)) return { ifsc, status: 'unknown-bank', bank: this.bank(code), subletOf: null };
    const branch = ifsc.slice(5);
    const sets = this.branches(code);
    const listed = /^\d+$/.test(branch) ? sets.numbers.has(Number(branch)) || sets.texts.has(branch) : sets.texts.has(branch);
    return { ifsc, status: listed ? 'listed' : 'unlisted-branch', bank: this.bank(code), subletOf: this.sublet(ifsc) };
  }

  private sublet(ifsc: string): BankFacts | null {
    let code = this.file.sublets[ifsc];
    if (code === undefined) {
      for (let n = ifsc.length - 1; n >= 5 && code === undefined; n -= 1) code = this.file.subletPrefixes[ifsc.slice(0, n)];
    }
    return code === undefined ? null : this.bank(code) ?? { code, name: null, type: null, upi: null };
  }

  private branches(code: string): { numbers: Set<number>; texts: Set<string> } {
    let sets = this.decoded.get(code);
    if (!sets) {
      const bank = this.file.banks[code]!;
      sets = { numbers: decodeNumbers(bank.n), texts: new Set(bank.s === '' ? [] : bank.s.split(',')) };
      this.decoded.set(code, sets);
    }
    return sets;
  }
}

/** Inverse of the build script's encodeNumbers. */
export function decodeNumbers(text: string): Set<number> {
  const out = new Set<number>();
  if (text === '') return out;
  let previousEnd = -1;
  for (const run of text.split('.')) {
    const [gap, length] = run.split('+');
    const start = previousEnd + 1 + parseInt(gap!, 36);
    const count = length === undefined ? 1 : parseInt(length, 36);
    for (let i = 0; i < count; i += 1) out.add(start + i);
    previousEnd = start + count - 1;
  }
  return out;
}

export function readRegistry(file: string | URL = DEFAULT_REGISTRY_PATH): IfscRegistry {
  const json = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
  return new IfscRegistry(JSON.parse(json) as RegistryFile);
}

let shared: IfscRegistry | undefined;

/** The shipped registry, read on first use (a few tens of milliseconds). */
export function ifscRegistry(): IfscRegistry {
  shared ??= readRegistry();
  return shared;
}

/** The bank a row's IFSC names, for `bank_name` where the API gives none (a sublet code names its real bank). */
export function registryBankName(lookup: IfscLookup | undefined): string | null {
  if (!lookup || lookup.status === 'malformed' || lookup.status === 'unknown-bank') return null;
  return lookup.subletOf?.name ?? lookup.bank?.name ?? null;
}

/** What the registry adds to a row's `verify_reason` (unlisted branch, sublet code), or ''. */
export function registryNote(lookup: IfscLookup | undefined, registry: IfscRegistry): string {
  if (!lookup) return '';
  const notes: string[] = [];
  if (lookup.status === 'unlisted-branch') {
    notes.push(`IFSC ${lookup.ifsc} is not in the IFSC registry of ${registry.published} (it lags new branches): called anyway`);
  }
  if (lookup.subletOf) {
    notes.push(`IFSC ${lookup.ifsc} is a sub-member code: the account is held at ${lookup.subletOf.name ?? lookup.subletOf.code}, through ${lookup.bank?.name ?? lookup.ifsc.slice(0, 4)}`);
  }
  return notes.join('; ');
}

/** Why a row whose IFSC's bank code issues no IFSCs is INVALID. */
export function unknownBankReason(lookup: IfscLookup, registry: IfscRegistry): string {
  const code = lookup.ifsc.slice(0, 4);
  const member = lookup.bank?.name ? ` (${code} is ${lookup.bank.name}, which uses its sponsor bank's IFSCs)` : '';
  return `IFSC ${lookup.ifsc}: no bank issues IFSCs under the code ${code}${member}, per the IFSC registry of ${registry.published}; check the IFSC`;
}
