/**
 * Holders derived from the payee file's own names (issue #30): with `--sandbox` and no
 * `--sandbox-accounts`, the in-process sandbox answers each account with the name its payee row
 * gives, written the way Indian banks print names, so a user's first try shows the spread of
 * verdicts a real run would. A small share of accounts answer someone else (a wrong account in
 * the file) and a small share answer a holder that changes from one IST day to the next (the
 * fraud signal `changed_since` exists for). Pure and deterministic: a seeded hash of the account.
 */
import { FEMALE_MARKERS, givenNameGender, holderNameFor, maleNameFor, personFor, type Gender } from './data/names.js';
import { pick, randomFor, type Random } from './prng.js';
import { CHANGED_HOLDER_SHARE, DIFFERENT_HOLDER_SHARE } from './holder-shares.js';

export { CHANGED_HOLDER_SHARE, DIFFERENT_HOLDER_SHARE };

/** Field lengths banks cut a name at, and how often each is the account's bank's. */
const FIELD_LENGTHS: readonly (readonly [length: number, weight: number])[] = [[50, 0.6], [35, 0.2], [30, 0.1], [25, 0.06], [20, 0.04]];

// Titles a payee file may carry: a bank prints its own (MR/SMT) or none.
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'SMT', 'SHRI', 'SRI', 'SHREE', 'KUMARI', 'KUM', 'DR', 'THIRU', 'SARDAR']);
const RELATION = /\b(?:[SDWC]\s*\/\s*O|SON OF|DAUGHTER OF|WIFE OF)\b/;
// Words that make a name a firm's: M/S, the legal form short or in full, never initials.
const FIRM_WORDS = /\b(?:PVT|PRIVATE|LTD|LIMITED|LLP|CO|COMPANY|CORPORATION|TRADERS|TRADING|ENTERPRISES?|AGENCIES|INDUSTRIES|SONS|BROTHERS|EXPORTS|SOLUTIONS|SERVICES|TRANSPORT|LOGISTICS|TRUST|FOUNDATION|SOCIETY|ASSOCIATES|INFOTECH|TECHNOLOGIES|SYSTEMS|STORES?|SUPPLIERS|HARDWARE|TEXTILES|ELECTRICALS|MEDICALS|PHARMA|FOODS|MOTORS|JEWELLERS|CONSTRUCTIONS?|BUILDERS|HOSPITAL|CLINIC|SCHOOL|M\/S|HUF)\b|&/;

// A last word like these names a line of business (LANDSCAPING, CATERERS, LOGISTICS), not a surname.
const FIRM_ENDING = /(?:ING|ERS|IES|ICS|TIONS|MENT|WARE|TECH|MART)$/;

/** A firm's name (a legal form, a trade word, M/S, &): never written with initials or surname first. */
function isFirm(upper: string): boolean {
  return FIRM_WORDS.test(upper) || FIRM_ENDING.test(upper.slice(upper.lastIndexOf(' ') + 1));
}

/** Upper case, punctuation other than `&` and `/` as spaces, one space between words (an Indian script's vowel signs and viramas, \p{M}, are letters' parts, kept). */
function bankCase(name: string): string {
  return name.toUpperCase().replace(/[^\p{L}\p{M}\p{N}&/]+/gu, ' ').trim();
}

function fieldLength(random: Random): number {
  let roll = random();
  for (const [length, weight] of FIELD_LENGTHS) {
    roll -= weight;
    if (roll < 0) return length;
  }
  return 50;
}

function firmStyle(random: Random, name: string, length: number): string {
  // Most banks print the legal form short, some in full.
  const firm = random() < 0.6 ? name.replace(/\bPRIVATE LIMITED\b/, 'PVT LTD').replace(/\bLIMITED\b/, 'LTD') : name;
  // M/S where the field has room for it: a bank that cuts names short does not prefix them.
  return random() < 0.15 && !firm.startsWith('M/S') && firm.length + 4 <= length ? `M/S ${firm}` : firm;
}

/** The word order and initials a bank prints a person's name in. */
function personStyle(random: Random, words: readonly string[]): string[] {
  const roll = random();
  const last = words.length - 1;
  if (words.length >= 3 && roll < 0.08) return [...words.slice(0, last).map((w) => w.charAt(0)), words[last] as string]; // R K SHARMA
  if (words.length >= 3 && roll < 0.2) return [words[0] as string, ...words.slice(1, last).map((w) => w.charAt(0)), words[last] as string]; // RAJESH K SHARMA
  if (words.length >= 2 && roll < 0.36) return [words[last] as string, ...words.slice(0, last)]; // SHARMA RAJESH KUMAR
  return [...words];
}

/** MR / SMT / MRS / KUMARI, when the given name tells the gender. */
function title(random: Random, gender: Gender): string {
  if (gender === 'M') return 'MR';
  return pick(random, ['SMT', 'MRS', 'MS', 'KUMARI']);
}

/** A relation clause (S/O, D/O, W/O) naming a father or husband, with the payee's surname where the name has one. */
function relationClause(random: Random, gender: Gender, last: string): string {
  const father = FEMALE_MARKERS.has(last) ? maleNameFor(random, last) : `${maleNameFor(random, last)} ${last}`;
  if (gender === 'M') return `S/O ${father}`;
  return `${random() < 0.5 ? 'D/O' : 'W/O'} ${father}`;
}

/**
 * `name` written the way a bank prints its holder: upper case, the file's title dropped and
 * sometimes MR/SMT added, initials for given or middle names ("R K SHARMA"), the surname first
 * ("SHARMA RAJESH KUMAR"), rarely an S/O clause, and cut at the bank's field length (20–50
 * characters). Firms keep their word order. The same (name, account, seed) always gives the same
 * holder; an empty name gives the generated holder of the account.
 */
export function bankStyleHolder(name: string, accountNumber: string, seed = 1): string {
  const upper = bankCase(name);
  if (upper === '') return holderNameFor(accountNumber, seed);
  const random = randomFor(`bank-style:${accountNumber}`, seed);
  const length = fieldLength(random);
  if (isFirm(upper)) return cut(firmStyle(random, upper, length), length);
  const words = upper.split(' ');
  while (words.length > 1 && TITLES.has(words[0] as string)) words.shift();
  // A relation clause the file gives stays where it is, after the name.
  if (RELATION.test(upper)) return cut(words.join(' '), length);
  let holder = personStyle(random, words).join(' ');
  // A title or a relation clause only where the given name tells the gender (the sandbox's tables).
  const gender = givenNameGender(words);
  const extra = random();
  if (gender === undefined) return cut(holder, length);
  if (extra < 0.12) return cut(`${title(random, gender)} ${holder}`, length);
  if (extra > 0.97 && words.length >= 2) {
    const clause = relationClause(random, gender, words[words.length - 1] as string);
    // A clause the field would cut is left out rather than printed half.
    if (holder.length + clause.length + 1 <= length) holder = `${holder} ${clause}`;
  }
  return cut(holder, length);
}

/** Cut at a bank's field length, mid-word as banks do, without a trailing space. */
function cut(holder: string, length: number): string {
  return holder.length <= length ? holder : holder.slice(0, length).trimEnd();
}

/** Which of the documented shares an account falls in (a seeded hash of the account). */
export type HolderShare = 'same' | 'different' | 'changed';

export function holderShare(accountNumber: string, seed = 1): HolderShare {
  const roll = randomFor(`holder-share:${accountNumber}`, seed)();
  if (roll < DIFFERENT_HOLDER_SHARE) return 'different';
  if (roll < DIFFERENT_HOLDER_SHARE + CHANGED_HOLDER_SHARE) return 'changed';
  return 'same';
}

/**
 * The holder the sandbox answers for an account whose payee name the file gives, on `istDay`
 * (days since the epoch in Asia/Kolkata): the payee written bank-style, or for the documented
 * shares another person (every day), or another person on odd days only (a changed holder).
 */
export function payeeHolder(payeeName: string, accountNumber: string, seed: number, istDay: number): string {
  const share = holderShare(accountNumber, seed);
  const other = (): string => personFor(`other-holder:${accountNumber}`, seed).name;
  if (share === 'different') return other();
  if (share === 'changed' && istDay % 2 === 1) return other();
  return bankStyleHolder(payeeName, accountNumber, seed);
}
