/**
 * Name-matcher throughput: `node --import tsx bench/match.ts [pairs]`.
 *
 * Prints pairs/s for two workloads on one core:
 * - "distinct": every expected name is new to the process (one word of each is unique, so only
 *   the common words hit the matcher's cache of words already read), which is a first run over a
 *   large payee list;
 * - "repeated": the same pairs again (every word is cached), which is a re-run or a list with
 *   repeating payees.
 * The machine's load moves these figures a lot: compare two matchers in one sitting, one after
 * the other (issue #28 did, with the matcher before it copied aside), and read pairs per CPU
 * second, which the load moves much less than pairs per wall second.
 * Timing is printed, never asserted: CI machines vary too much for a time limit to mean anything.
 */
import { matchNames } from '../src/match/index.js';
import { createRandom, pick } from '../src/sandbox/prng.js';

const FIRST = [
  'Rajesh', 'Suresh', 'Ramesh', 'Priya', 'Pooja', 'Anil', 'Sunita', 'Mohammed', 'Gurpreet', 'Harpreet',
  'Lakshmi', 'Venkatesh', 'Srinivas', 'Arindam', 'Sourav', 'Kavitha', 'Joseph', 'Mary', 'Fatima', 'Irfan',
  'Deepak', 'Neha', 'Amit', 'Sanjay', 'Vikram', 'Anjali', 'Rahul', 'Kiran', 'Nilesh', 'Hetal',
  'Manpreet', 'Jaswinder', 'Abdul', 'Syed', 'Subramanian', 'Karthik', 'Senthil', 'Anand', 'Meena', 'Rekha',
];
const MIDDLE = ['', '', '', 'Kumar', 'Kumari', 'Devi', 'Singh', 'Lal', 'Prasad', 'Chandra', 'Bhai', 'Ben', 'Rani', 'Mohan', 'Raj'];
const LAST = [
  'Sharma', 'Verma', 'Gupta', 'Agarwal', 'Patel', 'Shah', 'Reddy', 'Naidu', 'Iyer', 'Nair', 'Menon', 'Pillai',
  'Khan', 'Ansari', 'Qureshi', 'Shaikh', 'Bhattacharya', 'Chatterjee', 'Mukherjee', 'Das', 'Ghosh', 'Sandhu',
  'Gill', 'Kaur', 'Fernandes', "D'Souza", 'Thomas', 'Mathew', 'Kulkarni', 'Deshpande', 'Patil', 'Yadav',
];
const BUSINESS = ['Enterprises', 'Traders', 'Industries Pvt Ltd', 'Textiles Private Limited', '& Co', 'Associates LLP'];
const TITLES = ['', '', '', 'Mr. ', 'Mrs ', 'Shri ', 'Smt. ', 'Dr. ', 'M/s '];



/** A realistic bank-side rendering of `name`: upper case, initials, truncation, or someone else. */
function bankSide(random: () => number, first: string, middle: string, last: string, business: string): string {
  const roll = random();
  const full = [first, middle, last, business].filter((part) => part !== '').join(' ');
  if (roll < 0.35) return full.toUpperCase();
  if (roll < 0.45) return `${first[0] ?? ''} ${middle === '' ? '' : `${middle[0] ?? ''} `}${last}`.toUpperCase();
  if (roll < 0.55) return `${last} ${first}`.toUpperCase();
  if (roll < 0.62) return full.toUpperCase().slice(0, 20);
  if (roll < 0.7) return `MR ${first} ${last}`.toUpperCase();
  // Someone else: a different first name, sometimes the same surname.
  const other = `${pick(random, FIRST)} ${random() < 0.5 ? last : pick(random, LAST)}`;
  return other.toUpperCase();
}

function makePairs(count: number, seed: number, unique: boolean): [string, string][] {
  const random = createRandom(seed);
  const pairs: [string, string][] = [];
  for (let i = 0; i < count; i += 1) {
    const first = pick(random, FIRST);
    const middle = pick(random, MIDDLE);
    const last = pick(random, LAST);
    const business = random() < 0.15 ? pick(random, BUSINESS) : '';
    // A unique tag keeps every expected name distinct without changing how it parses much.
    const tag = unique ? ` ${i.toString(36).replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'x')}` : '';
    const expected = `${pick(random, TITLES)}${first}${middle === '' ? '' : ` ${middle}`} ${last}${business === '' ? '' : ` ${business}`}${tag}`;
    pairs.push([expected, bankSide(random, first, middle, last, business)]);
  }
  return pairs;
}

function run(label: string, pairs: readonly [string, string][]): void {
  let checksum = 0;
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  for (const [expected, actual] of pairs) checksum += matchNames(expected, actual).score;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const rate = (s: number): string => Math.round(pairs.length / s).toLocaleString('en-US');
  // Pairs per CPU second moves far less with the machine's load than pairs per wall second.
  console.log(`${label.padEnd(10)} ${pairs.length} pairs in ${(seconds * 1000).toFixed(0)} ms: ${rate(seconds)} pairs/s wall, ${rate(cpuSeconds)} pairs/CPU-s (checksum ${checksum})`);
}

const count = Number(process.argv[2] ?? 200_000);
const distinct = makePairs(count, 7, true);
const repeated = makePairs(Math.min(count, 5_000), 11, false);
// Warm the JIT on a different set so the first measured loop is not the compiler's.
run('warm-up', makePairs(20_000, 3, true));
run('distinct', distinct);
const repeatedRun: [string, string][] = [];
while (repeatedRun.length < count) repeatedRun.push(...repeated);
run('repeated', repeatedRun);
