/**
 * Generates samples/holders.csv, the holder registry of the demo
 * (`vas-verify bank samples/payees.csv --sandbox --sandbox-accounts samples/holders.csv`):
 * for every account of samples/accounts.csv, the name the bank returns, derived from the payee
 * name of samples/payees.csv the way bank records really differ (issue #14): titles, spelling
 * variants, initials, S/O and W/O clauses, joint holders, surname first, a cut at the field
 * width, a typing slip, Gujarati -bhai/-ben, other legal forms — and, for some rows, another
 * person or firm: the other gender's form of the name, a relative, a namesake with the same
 * surname, a firm in another line of business. Deterministic: each account's variant follows
 * from its number.
 *
 * Run: node --import tsx samples/generate-holders.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { parseName } from '../src/match/parse-name.js';
import { FEMALE_NAMES } from '../src/match/female-names.js';
import { hashString } from '../src/sandbox/prng.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const payees = parse(readFileSync(here('./payees.csv')), { columns: true, relax_column_count: true }) as Record<string, string>[];
const accounts = parse(readFileSync(here('./accounts.csv')), { columns: true }) as Record<string, string>[];
const payeeOf = new Map(payees.map((p) => [(p['Account No'] ?? '').trim(), (p['Payee Name'] ?? '').trim()]));

const LINES = ['TRADERS', 'TEXTILES', 'ELECTRICALS', 'ELECTRONICS', 'ENGINEERING', 'ENTERPRISES', 'MOTORS', 'AGENCIES', 'PRINTERS', 'SUPPLIERS', 'HARDWARE', 'STATIONERS', 'CATERERS', 'INDUSTRIES', 'SERVICES', 'SOLUTIONS'];
const OTHER_MALE = ['RAMESH', 'SURESH', 'MAHESH', 'RAJESH', 'DINESH', 'MOHAN', 'PRAKASH', 'VIJAY'];
const OTHER_FEMALE = ['SUNITA', 'ANITA', 'KAVITA', 'REKHA', 'MEENA', 'PRIYA', 'POOJA', 'NEHA'];
const SPELLINGS: readonly (readonly [RegExp, string])[] = [
  [/EE/, 'I'], [/OO/, 'U'], [/^V/, 'W'], [/SH/, 'S'], [/KSH/, 'X'], [/TH/, 'T'], [/I$/, 'EE'], [/A$/, 'AA'], [/U/, 'OO'],
];

function pickOf<T>(list: readonly T[], seed: number): T {
  return list[seed % list.length] as T;
}

function personVariant(name: string, seed: number): string {
  const up = name.toUpperCase();
  const words = up.split(/\s+/);
  const given = words[0] ?? '';
  const surname = words.at(-1) ?? '';
  const female = /[AI]$/.test(given);
  const roll = seed % 100;
  if (roll < 28) return up;
  if (roll < 35) return `${female ? 'SMT' : 'MR'} ${up}`;
  if (roll < 44) {
    // One spelling variant of one word (Deepak / DIPAK, Vikas / WIKAS, Lakshmi / LAXMI).
    for (let k = 0; k < words.length; k += 1) {
      const i = (k + seed) % words.length;
      const [pattern, replacement] = pickOf(SPELLINGS, seed >>> 3);
      const w = words[i] ?? '';
      if (w.length > 3 && pattern.test(w)) return words.map((x, j) => (j === i ? w.replace(pattern, replacement) : x)).join(' ');
    }
    return up;
  }
  if (roll < 50 && words.length >= 2) return `${given[0]} ${words.slice(1).join(' ')}`;
  if (roll < 58) return `${up} ${female ? pickOf(['D/O', 'W/O'], seed >>> 4) : 'S/O'} ${pickOf(OTHER_MALE, seed >>> 5)} ${surname}`;
  if (roll < 64) return `${up} AND ${pickOf(female ? OTHER_MALE : OTHER_FEMALE, seed >>> 5)} ${surname}`;
  if (roll < 70 && words.length >= 2) return `${surname} ${words.slice(0, -1).join(' ')}`;
  if (roll < 75 && up.length > 20) return up.slice(0, 20).trimEnd();
  if (roll < 79 && surname.length >= 5) return [...words.slice(0, -1), surname.slice(0, 2) + surname[3] + surname[2] + surname.slice(4)].join(' ');
  if (roll < 82 && /^(PATEL|SHAH|MODI|DESAI|MEHTA|PARIKH|JOSHI)$/.test(surname) && words.length === 2) return `${given}${female ? 'BEN' : 'BHAI'} ${surname}`;
  // Another person from here on: the woman's form of the name (a sister or wife), a relative
  // whose record carries the payee's name as father's or husband's name, a namesake.
  if (roll < 86 && words.length >= 2 && FEMALE_NAMES.has(`${given}A`.toLowerCase())) return [`${given}A`, ...words.slice(1)].join(' ');
  if (roll < 86 && words.length >= 2 && FEMALE_NAMES.has(`${given}I`.toLowerCase())) return [`${given}I`, ...words.slice(1)].join(' ');
  if (roll < 91 && words.length >= 2) return `${pickOf(female ? OTHER_MALE : OTHER_FEMALE, seed >>> 6)} ${given} ${surname}`;
  if (roll < 96 && words.length >= 2) return `${pickOf(female ? OTHER_FEMALE : OTHER_MALE, seed >>> 7)} ${surname}`;
  return up;
}

function firmVariant(name: string, seed: number): string {
  const up = name.toUpperCase();
  const roll = seed % 100;
  if (roll < 30) return up;
  if (roll < 45) return up.replace(/PRIVATE LIMITED$/, 'PVT LTD').replace(/PVT\.? LTD\.?$/, 'PRIVATE LIMITED').replace(/ LIMITED$/, ' LTD');
  if (roll < 55) return `M/S ${up}`;
  if (roll < 70 && up.length > 30) return up.slice(0, 30).trimEnd();
  if (roll < 80) {
    // Another firm with the same name in another line of business.
    const line = LINES.find((l) => up.includes(l));
    if (line !== undefined) return up.replace(line, pickOf(LINES.filter((l) => l !== line), seed >>> 3));
  }
  return up;
}

const rows = accounts.map((a) => {
  const payee = payeeOf.get(a.accountNumber ?? '');
  if (payee === undefined || payee === '') return a;
  const seed = hashString(`holders:${a.accountNumber ?? ''}`);
  const name = parseName(payee).entity === 'business' ? firmVariant(payee, seed) : personVariant(payee, seed);
  return { ...a, name };
});

writeFileSync(
  here('./holders.csv'),
  `# Demo holder registry: the bank-side name of each sample account (samples/generate-holders.ts).\n${stringify(rows, { header: true, columns: ['accountNumber', 'ifsc', 'name', 'status'] })}`,
);
console.log(`wrote samples/holders.csv (${rows.length} rows)`);
