/**
 * The shipped, dated list of IFSC codes (docs/ARCHITECTURE.md, "Glossary", registry): which bank codes exist,
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
  /** Bank facts by code (issuing banks and sub-members), built once. */
  private readonly facts = new Map<string, BankFacts>();
  private readonly sublets: Map<string, string>;
  private readonly subletPrefixes: Map<string, string>;
  /** Bank codes with any sublet code or prefix: most IFSCs are not asked six prefixes. */
  private readonly subletBanks: Set<string>;
  /** The lengths of the sublet prefixes (5 and more), longest first: the longest prefix decides. */
  private readonly prefixLengths: number[];
  /** Decoded branch codes, per bank, on first use. */
  private readonly decoded = new Map<string, { numbers: BranchNumbers; texts: Set<string> }>();
  /** Answers by code: a payee file repeats a few thousand IFSCs over many rows. */
  private readonly answers = new Map<string, IfscLookup>();

  constructor(file: RegistryFile) {
    this.file = file;
    this.source = file.source;
    this.published = file.published;
    for (const code of new Set([...Object.keys(file.banks), ...Object.keys(file.members), ...Object.keys(file.names)])) {
      const bank = file.banks[code] ?? file.members[code];
      this.facts.set(code, { code, name: file.names[code] ?? null, type: bank?.type ?? null, upi: bank?.upi ?? null });
    }
    this.sublets = new Map(Object.entries(file.sublets));
    this.subletPrefixes = new Map(Object.entries(file.subletPrefixes));
    this.prefixLengths = [...new Set([...this.subletPrefixes.keys()].map((key) => key.length).filter((n) => n >= 5))].sort((a, b) => b - a);
    this.subletBanks = new Set([...this.sublets.keys(), ...this.subletPrefixes.keys()].map((key) => key.slice(0, 4)));
  }

  /** Every bank code that issues IFSCs. */
  get bankCodes(): string[] {
    return Object.keys(this.file.banks);
  }

  bank(code: string): BankFacts | null {
    return this.facts.get(code) ?? null;
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
    if (!this.subletBanks.has(ifsc.slice(0, 4))) return null;
    let code = this.sublets.get(ifsc);
    for (const n of this.prefixLengths) if (code === undefined && n < ifsc.length) code = this.subletPrefixes.get(ifsc.slice(0, n));
    return code === undefined ? null : this.bank(code) ?? { code, name: null, type: null, upi: null };
  }

  private branches(code: string): { numbers: BranchNumbers; texts: Set<string> } {
    let sets = this.decoded.get(code);
    if (!sets) {
      const bank = this.file.banks[code]!;
      sets = { numbers: BranchNumbers.decode(bank.n), texts: new Set(bank.s === '' ? [] : bank.s.split(',')) };
      this.decoded.set(code, sets);
    }
    return sets;
  }
}

/**
 * A bank's numeric branch codes as sorted runs (the build script's encodeNumbers: runs of
 * `gap+length` in base 36, `.`-separated): decoding makes one pair of numbers per run, not one
 * set entry per branch (SBIN has over 20,000), and `has` is a binary search.
 */
export class BranchNumbers {
  private constructor(
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
  ) {}

  static decode(text: string): BranchNumbers {
    const runs = text === '' ? [] : text.split('.');
    const starts = new Int32Array(runs.length);
    const ends = new Int32Array(runs.length);
    let previousEnd = -1;
    runs.forEach((run, i) => {
      const [gap, length] = run.split('+');
      starts[i] = previousEnd + 1 + parseInt(gap!, 36);
      ends[i] = starts[i]! + (length === undefined ? 1 : parseInt(length, 36)) - 1;
      previousEnd = ends[i]!;
    });
    return new BranchNumbers(starts, ends);
  }

  /** How many branch codes. */
  get size(): number {
    let total = 0;
    for (let i = 0; i < this.starts.length; i += 1) total += this.ends[i]! - this.starts[i]! + 1;
    return total;
  }

  has(n: number): boolean {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (n < this.starts[mid]!) high = mid - 1;
      else if (n > this.ends[mid]!) low = mid + 1;
      else return true;
    }
    return false;
  }

  /** Every code, ascending. */
  *[Symbol.iterator](): IterableIterator<number> {
    for (let i = 0; i < this.starts.length; i += 1) for (let n = this.starts[i]!; n <= this.ends[i]!; n += 1) yield n;
  }
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

/** What the registry adds to a row's `verify_reason` (unlisted branch, sublet code), or ''. `called`: the row went to the API (not one its local checks stopped). */
export function registryNote(lookup: IfscLookup | undefined, registry: IfscRegistry, called = true): string {
  if (!lookup) return '';
  const notes: string[] = [];
  if (lookup.status === 'unlisted-branch') {
    notes.push(`IFSC ${lookup.ifsc} is not in the IFSC registry of ${registry.published} (it lags new branches)${called ? ': called anyway' : ''}`);
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
