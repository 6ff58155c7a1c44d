/**
 * Deterministic payee files for the benchmark. Account numbers embed the row's index, so
 * uniqueness holds by construction, and never end in 91–97 (the sandbox's test accounts that
 * answer with errors, delays or dropped connections): every generated call is a clean success.
 * Payee names are mostly the holder name the sandbox will return, so name matching does the
 * work it does on a real file.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { BANKS, holderNameFor } from '../../src/sandbox/index.js';
import { createRandom } from '../../src/sandbox/prng.js';

/** The sandbox's seeded generator (mulberry32): the same seed gives the same file on every machine. */
export { createRandom };

export const HEADER = ['Payee Name', 'Account No', 'IFSC Code', 'Amount', 'Email'] as const;

const intBelow = (random: () => number, n: number) => Math.floor(random() * n);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Endings 90 (a clean NOT_VERIFIED) and 98–99, 00–89 are ordinary; 91–97 are the sandbox's test accounts. */
const SAFE_ENDINGS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')).filter((e) => !/^9[1-7]$/.test(e));
const BANK_CODES = BANKS.map((b) => b.code);
const TITLES = ['Mr. ', 'Mrs ', 'Shri ', 'Smt. ', 'M/s '];
const OTHER_NAMES = ['Rakesh Kumar Sharma', 'Pooja Devi', 'Mohammed Irfan Shaikh', 'Lakshmi Narayanan', 'Gurpreet Singh Gill'];

export interface Payee {
  account: string;
  ifsc: string;
  name: string;
}

/** The n-th payee of a family (seed): unique account for each (seed, index). */
export function payee(seed: number, index: number): Payee {
  const random = createRandom(seed * 1_000_003 + index);
  // 2–5 digits → 11–15-digit accounts (16+ digits ending in 0 look like spreadsheet damage).
  const prefixLength = 2 + intBelow(random, 4);
  let prefix = String(1 + intBelow(random, 9));
  while (prefix.length < prefixLength) prefix += String(intBelow(random, 10));
  // The seed's digit keeps families apart; the index makes each account unique within one.
  const account = `${prefix}${seed % 10}${String(index).padStart(7, '0')}${SAFE_ENDINGS[intBelow(random, SAFE_ENDINGS.length)]}`;
  let branch = '';
  for (let i = 0; i < 6; i += 1) branch += ALNUM[intBelow(random, ALNUM.length)];
  const ifsc = `${BANK_CODES[intBelow(random, BANK_CODES.length)]}0${branch}`;
  const holder = holderNameFor(account);
  const roll = random();
  const name = roll < 0.8 ? holder : roll < 0.95 ? `${TITLES[intBelow(random, TITLES.length)]}${holder.toLowerCase()}` : OTHER_NAMES[intBelow(random, OTHER_NAMES.length)]!;
  return { account, ifsc, name };
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function rowOf(p: Payee, index: number, accountText = p.account, ifscText = p.ifsc): string {
  const amount = `${1000 + ((index * 7919) % 90000)}.00`;
  const email = `payee${index}@example.com`;
  return [p.name, accountText, ifscText, amount, email].map(csvField).join(',');
}

/** Writes lines through a stream in large blocks, respecting back-pressure. */
async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const out = fs.createWriteStream(file);
  let block = '';
  for (const line of lines) {
    block += `${line}\n`;
    if (block.length >= 1 << 20) {
      if (!out.write(block)) await once(out, 'drain');
      block = '';
    }
  }
  out.end(block);
  await once(out, 'close');
}

/** `rows` distinct valid payees of family `seed`. */
export async function writeUniqueFile(file: string, rows: number, seed = 1): Promise<void> {
  function* lines() {
    yield HEADER.join(',');
    for (let i = 0; i < rows; i += 1) yield rowOf(payee(seed, i), i);
  }
  await writeLines(file, lines());
}

/** Ways a spreadsheet or a person breaks a row; each fails a local check. */
function invalidRow(random: () => number, p: Payee, index: number): string {
  switch (intBelow(random, 4)) {
    case 0:
      return rowOf(p, index, '1.23457E+11');
    case 1:
      return rowOf(p, index, p.account.slice(0, 6));
    case 2:
      return rowOf(p, index, p.account, `${p.ifsc.slice(0, 4)}X${p.ifsc.slice(5)}`);
    default:
      return rowOf(p, index, '', p.ifsc);
  }
}

/** The same account written the way another export would: spaces or hyphens, lower-case IFSC. */
function duplicateRow(random: () => number, p: Payee, index: number): string {
  const variant = intBelow(random, 3);
  const account = variant === 0 ? p.account : variant === 1 ? `${p.account.slice(0, 4)} ${p.account.slice(4)}` : `${p.account.slice(0, 4)}-${p.account.slice(4)}`;
  return rowOf(p, index, account, intBelow(random, 2) === 0 ? p.ifsc : ` ${p.ifsc.toLowerCase()} `);
}

export interface MixedFile {
  rows: number;
  /** account|IFSC keys of the valid rows, as the pipeline normalises them. */
  validKeys: Set<string>;
  invalidRows: number;
  duplicateRows: number;
}

/**
 * A file of `rows` rows: `invalidShare` fail local checks, `duplicateShare` repeat an earlier
 * valid payee (written differently), the rest are distinct payees drawn from `payees`.
 */
export async function writeMixedFile(file: string, rows: number, payees: readonly Payee[], seed: number, duplicateShare = 0.3, invalidShare = 0.1): Promise<MixedFile> {
  const random = createRandom(seed);
  const kinds: Array<'new' | 'dup' | 'bad'> = [];
  const dupRows = Math.round(rows * duplicateShare);
  const badRows = Math.round(rows * invalidShare);
  for (let i = 0; i < rows; i += 1) kinds.push(i < dupRows ? 'dup' : i < dupRows + badRows ? 'bad' : 'new');
  // Shuffle, but the first row is always a new payee so that a duplicate has something to repeat.
  for (let i = kinds.length - 1; i > 0; i -= 1) {
    const j = intBelow(random, i + 1);
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  const firstNew = kinds.indexOf('new');
  if (firstNew > 0) [kinds[0], kinds[firstNew]] = [kinds[firstNew]!, kinds[0]!];
  const newRows = kinds.filter((k) => k === 'new').length;
  if (newRows > payees.length) throw new Error(`writeMixedFile: ${newRows} new rows need as many payees, got ${payees.length}`);

  const used: Payee[] = [];
  const validKeys = new Set<string>();
  const lines: string[] = [HEADER.join(',')];
  kinds.forEach((kind, index) => {
    if (kind === 'new') {
      const p = payees[used.length]!;
      used.push(p);
      validKeys.add(`${p.account}|${p.ifsc}`);
      lines.push(rowOf(p, index));
    } else if (kind === 'dup') {
      lines.push(duplicateRow(random, used[intBelow(random, used.length)]!, index));
    } else {
      lines.push(invalidRow(random, payee(seed + 7, index), index));
    }
  });
  await writeLines(file, lines);
  return { rows, validKeys, invalidRows: badRows, duplicateRows: dupRows };
}
