/**
 * Generates the demo inputs, deterministically (same seed, same bytes):
 *
 * - samples/payees.csv   — a payout list as a finance team exports it: mostly individuals, some
 *   vendors, every sandbox test-account kind (last two digits 90–97), a few duplicate payees and
 *   a few rows damaged the way spreadsheets damage them;
 * - samples/accounts.csv — the sandbox registry (`--accounts`): the bank-side holder name of each
 *   valid account, in upper case, usually the same person written the way banks write names
 *   (initials, titles, transliteration, cut at 30 characters, another legal suffix), sometimes a
 *   different person (the fraud signal), sometimes NOT_VERIFIED.
 *
 * Run: node --import tsx samples/generate.ts [seed]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { createRandom, pick, type Random } from '../src/sandbox/prng.js';

const DEFAULT_SEED = 20_240_611;
/** Bank field width used for the truncated holder names. */
const BANK_NAME_WIDTH = 30;




function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

// ---- people ----

interface Person {
  region: number;
  first: string;
  middle: string;
  last: string;
  female: boolean;
}

/** Given names and surnames grouped by region, so that combinations stay plausible. */
const REGIONS: readonly { male: readonly string[]; female: readonly string[]; middle: readonly string[]; last: readonly string[] }[] = [
  {
    // North
    male: ['Rajesh', 'Amit', 'Sanjay', 'Vikram', 'Rahul', 'Deepak', 'Manoj', 'Pankaj', 'Ashok', 'Vinod', 'Sunil', 'Rakesh', 'Mukesh', 'Ajay'],
    female: ['Sunita', 'Priya', 'Pooja', 'Neha', 'Anjali', 'Kavita', 'Rekha', 'Meena', 'Seema', 'Ritu', 'Shalini', 'Anita'],
    middle: ['', '', '', 'Kumar', 'Prasad', 'Chandra', 'Lal', 'Nath'],
    last: ['Sharma', 'Verma', 'Gupta', 'Agarwal', 'Srivastava', 'Mishra', 'Tiwari', 'Yadav', 'Saxena', 'Chauhan', 'Pandey', 'Malhotra'],
  },
  {
    // West: Gujarat
    male: ['Nilesh', 'Hitesh', 'Jignesh', 'Mahesh', 'Bhavesh', 'Ketan', 'Paresh', 'Chirag'],
    female: ['Hetal', 'Komal', 'Falguni', 'Nisha', 'Bhavna', 'Jigna'],
    middle: ['', '', 'Bhai'],
    last: ['Patel', 'Shah', 'Desai', 'Mehta', 'Parikh', 'Modi', 'Trivedi'],
  },
  {
    // West: Maharashtra (the middle name is the father's or husband's)
    male: ['Sachin', 'Prakash', 'Sandeep', 'Tushar', 'Amol', 'Rohan', 'Nitin', 'Sagar'],
    female: ['Snehal', 'Pallavi', 'Swati', 'Manisha', 'Varsha', 'Madhuri'],
    middle: ['', '', 'Ramesh', 'Suresh', 'Vasant', 'Dilip'],
    last: ['Patil', 'Kulkarni', 'Deshpande', 'Jadhav', 'Pawar', 'Joshi', 'Gaikwad', 'Shinde'],
  },
  {
    // South
    male: ['Venkatesh', 'Srinivas', 'Karthik', 'Senthil', 'Ramesh', 'Suresh', 'Anand', 'Murali', 'Venkateswara', 'Chandrasekhar', 'Subramanian', 'Lakshmanan'],
    female: ['Lakshmi', 'Kavitha', 'Divya', 'Anitha', 'Revathi', 'Padmavathi', 'Jyothi', 'Sowmya', 'Bhagyalakshmi', 'Priyadarshini'],
    middle: ['', '', '', 'Kumar', 'Sai', 'Rao'],
    last: ['Reddy', 'Naidu', 'Iyer', 'Nair', 'Menon', 'Pillai', 'Rao', 'Krishnamurthy', 'Ramachandran', 'Subramaniam', 'Venkataraman', 'Gowda', 'Shetty'],
  },
  {
    // East
    male: ['Arindam', 'Sourav', 'Debashis', 'Subhash', 'Partha', 'Biswajit', 'Anirban', 'Bikash', 'Sujit'],
    female: ['Moumita', 'Susmita', 'Rupa', 'Mitali', 'Sharmila', 'Ananya', 'Mausumi'],
    middle: ['', '', '', 'Kumar', 'Chandra', 'Ranjan'],
    last: ['Banerjee', 'Chatterjee', 'Mukherjee', 'Bhattacharya', 'Das', 'Ghosh', 'Sen', 'Bose', 'Chakraborty', 'Mohanty', 'Sahoo'],
  },
  {
    // Muslim
    male: ['Mohammed Irfan', 'Mohd Salim', 'Imran', 'Asif', 'Abdul Rahman', 'Syed Ahmed', 'Farhan', 'Javed', 'Rizwan', 'Tariq'],
    female: ['Fatima', 'Ayesha', 'Nazia', 'Shabana', 'Rukhsana', 'Zainab', 'Salma'],
    middle: ['', '', '', ''],
    last: ['Khan', 'Shaikh', 'Ansari', 'Qureshi', 'Siddiqui', 'Hussain', 'Ali', 'Pathan', 'Mirza'],
  },
  {
    // Sikh / Punjabi
    male: ['Gurpreet', 'Harpreet', 'Jaswinder', 'Manpreet', 'Sukhwinder', 'Kuldeep', 'Paramjit', 'Amandeep'],
    female: ['Harleen', 'Jasleen', 'Simran', 'Navneet', 'Gurleen', 'Manjeet'],
    middle: ['Singh'],
    last: ['Sandhu', 'Gill', 'Dhillon', 'Sidhu', 'Grewal', 'Bedi', 'Ahluwalia', ''],
  },
  {
    // Christian
    male: ['Joseph', 'Thomas', 'George', 'Anthony', 'Francis', 'John', 'Mathew', 'Paul'],
    female: ['Mary', 'Rebecca', 'Maria', 'Elizabeth', 'Annie', 'Grace'],
    middle: ['', '', ''],
    last: ["D'Souza", 'Fernandes', 'Pereira', 'Rodrigues', 'Thomas', 'Kurian', 'Chacko', 'Abraham', 'Mathew'],
  },
];

function makePerson(random: Random, regionIndex = Math.floor(random() * REGIONS.length)): Person {
  const region = REGIONS[regionIndex];
  if (region === undefined) throw new Error(`no region ${regionIndex}`);
  const female = random() < 0.42;
  const first = pick(random, female ? region.female : region.male);
  let middle = pick(random, region.middle);
  if (female) {
    // Sikh women are "Kaur"; "Kumar" becomes "Kumari" or "Devi"; Gujarati "Bhai" becomes "Ben";
    // a father's or husband's given name (Maharashtra) stays; other male middle names go.
    if (middle === 'Singh') middle = 'Kaur';
    else if (middle === 'Kumar') middle = pick(random, ['Kumari', 'Devi', '']);
    else if (middle === 'Bhai') middle = 'Ben';
    else if (!['Ramesh', 'Suresh', 'Vasant', 'Dilip', 'Sai'].includes(middle)) middle = '';
  }
  return { region: regionIndex, first, middle, last: pick(random, region.last), female };
}

function fullName(person: Person): string {
  return [person.first, person.middle, person.last].filter((part) => part !== '').join(' ');
}

// ---- businesses ----

/** Vendors: [name as the finance team writes it, e-mail domain, name as the bank holds it]. */
const BUSINESSES: readonly (readonly [string, string, string])[] = [
  ['Sharma Enterprises', 'sharmaenterprises.in', 'SHARMA ENTERPRISES'],
  ['Shree Ganesh Traders', 'shreeganeshtraders.com', 'M/S SHREE GANESH TRADERS'],
  ['Balaji Logistics Pvt Ltd', 'balajilogistics.co.in', 'BALAJI LOGISTICS PRIVATE LIMITED'],
  ['Krishna Textiles Pvt. Ltd.', 'krishnatextiles.com', 'KRISHNA TEXTILES PVT LTD'],
  ['Sai Krupa Caterers', 'saikrupacaterers.in', 'SAI KRUPA CATERERS'],
  ['Mehta & Sons', 'mehtaandsons.com', 'MEHTA AND SONS'],
  ['Apex Infotech Solutions Private Limited', 'apexinfotech.in', 'APEX INFOTECH SOLUTIONS PRIVAT'],
  ['Sri Venkateswara Agro Industries', 'svagro.in', 'SRI VENKATESWARA AGRO INDUSTRI'],
  ['Patel Brothers', 'patelbros.com', 'PATEL BROS'],
  ['Gupta & Co', 'guptaandco.in', 'GUPTA AND COMPANY'],
  ['Kapoor Associates LLP', 'kapoorassociates.in', 'KAPOOR ASSOCIATES LLP'],
  ['Anand Medical Stores', 'anandmedical.in', 'ANAND MEDICAL STORE'],
  ['Om Sai Electricals', 'omsaielectricals.com', 'OM SAI ELECTRICALS'],
  ['Navkar Corporation', 'navkarcorp.com', 'NAVKAR CORP'],
  ['Sunrise Housekeeping Services Pvt Ltd', 'sunrisehk.in', 'SUNRISE HOUSEKEEPING SERVICES'],
  ['Mahalaxmi Printers', 'mahalaxmiprinters.in', 'MAHALAKSHMI PRINTERS'],
  ['Annapurna Foods Private Limited', 'annapurnafoods.co.in', 'ANNAPURNA FOODS PVT LTD'],
  ['Bharat Steel Suppliers', 'bharatsteel.in', 'BHARAT STEEL SUPPLIERS'],
  ['Green Valley Landscaping', 'greenvalley.in', 'GREEN VALLEY LANDSCAPING'],
  ['Shiv Shakti Transport Co', 'shivshaktitransport.in', 'SHIV SHAKTI TRANSPORT COMPANY'],
  ['Vardhman Packaging Industries', 'vardhmanpack.com', 'VARDHMAN PACKAGING INDUSTRIES'],
  ['Royal Security Services', 'royalsecurity.in', 'ROYAL SECURITY SERVICES'],
  ['Tirupati Stationers', 'tirupatistationers.in', 'TIRUPATI STATIONERS'],
  ['Hindustan Office Solutions Ltd', 'hosl.co.in', 'HINDUSTAN OFFICE SOLUTIONS LIMITED'],
  ['Metro Cab Services', 'metrocabs.in', 'METRO CAB SERVICES'],
  ['Laxmi Narayan Hardware', 'lnhardware.in', 'LAKSHMI NARAYAN HARDWARE'],
  ['Coastal Seafoods Exports Pvt Ltd', 'coastalseafoods.in', 'COASTAL SEAFOODS EXPORTS PVT L'],
  ['Deccan Facility Management LLP', 'deccanfm.in', 'DECCAN FACILITY MANAGEMENT LLP'],
];

// ---- banks ----

/** Real IFSC codes of well-known branches, and each bank's usual account-number length. */
const BRANCHES: readonly (readonly [ifsc: string, accountLength: number])[] = [
  ['SBIN0001234', 11], ['SBIN0000300', 11], ['SBIN0004266', 11], ['HDFC0000123', 14], ['HDFC0001234', 14],
  ['HDFC0000240', 14], ['ICIC0001234', 12], ['ICIC0000011', 12], ['UTIB0000456', 15], ['UTIB0000004', 15],
  ['PUNB0123400', 16], ['BARB0ANDHER', 14], ['KKBK0000958', 10], ['CNRB0001234', 13], ['YESB0000001', 15],
  ['IDIB000A001', 10], ['IOBA0000123', 15], ['UBIN0531234', 15], ['BKID0000123', 15], ['MAHB0000456', 11],
  ['INDB0000789', 12], ['FDRL0001234', 14], ['CBIN0281234', 10], ['IDFB0040101', 11],
];

/** Sandbox test-account endings (DESIGN.md §3); ordinary accounts must avoid them. */
const TEST_ENDINGS = [90, 91, 92, 93, 94, 95, 96, 97] as const;
/** How many rows of each test kind; 96 answers after 3 s, so only two. */
const ROWS_PER_TEST_ENDING = 2;

function accountNumber(random: Random, length: number, ending: number | null): string {
  let digits = String(intBetween(random, 1, 9));
  while (digits.length < length - 2) digits += String(intBetween(random, 0, 9));
  let tail = ending ?? intBetween(random, 0, 99);
  // An ordinary account that happened to end in 90–97 would trigger a sandbox scenario.
  while (ending === null && tail >= 90 && tail <= 97) tail = intBetween(random, 0, 89);
  return digits + String(tail).padStart(2, '0');
}

// ---- bank-side names ----

/** Spelling swaps a bank's record often has (whole words, case-insensitive). */
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  Mohammed: 'MOHD', Mohd: 'MOHAMMAD', Lakshmi: 'LAXMI', Laxmi: 'LAKSHMI', Kavitha: 'KAVITA', Anitha: 'ANITA',
  Jyothi: 'JYOTI', Pradeep: 'PRADIP', Sandeep: 'SANDIP', Agarwal: 'AGGARWAL', Jaswinder: 'JASVINDER',
  Sukhwinder: 'SUKHVINDER', Srinivas: 'SREENIVAS', Venkatesh: 'VENKATESH', Chatterjee: 'CHATTERJI',
  Mukherjee: 'MUKHERJI', Banerjee: 'BANERJI', Reddy: 'REDDI', Bikash: 'VIKASH', Sourav: 'SAURAV',
  Vikram: 'VIKRAM', Rizwan: 'RIJWAN', Syed: 'SAYYED', Shaikh: 'SHEIKH', Fernandes: 'FERNANDEZ',
  "D'Souza": 'DSOUZA', Padmavathi: 'PADMAVATI', Revathi: 'REVATI', Sowmya: 'SOUMYA', Ahmed: 'AHMAD',
};

function transliterate(name: string): string {
  return name
    .split(' ')
    .map((word) => TRANSLITERATIONS[word] ?? word)
    .join(' ')
    .toUpperCase();
}

type Variation = 'same' | 'initials' | 'title' | 'surname-first' | 'transliteration' | 'no-middle' | 'truncated';

function bankName(random: Random, person: Person, variation: Variation): string {
  const name = fullName(person);
  switch (variation) {
    case 'same':
      return name.toUpperCase();
    case 'initials': {
      const initials = [person.first, person.middle].filter((part) => part !== '').map((part) => part[0]).join(' ');
      return person.last === '' ? name.toUpperCase() : `${initials} ${person.last}`.toUpperCase();
    }
    case 'title': {
      const title = person.female ? pick(random, ['MRS', 'SMT', 'MS', 'KUMARI']) : pick(random, ['MR', 'SHRI', 'MR.']);
      return `${title} ${name.toUpperCase()}`;
    }
    case 'surname-first':
      return person.last === '' ? name.toUpperCase() : [person.last, person.first, person.middle].filter((part) => part !== '').join(' ').toUpperCase();
    case 'transliteration':
      return transliterate(name);
    case 'no-middle':
      return [person.first, person.last].filter((part) => part !== '').join(' ').toUpperCase();
    case 'truncated':
      return name.toUpperCase().slice(0, BANK_NAME_WIDTH);
  }
}

function pickVariation(random: Random, person: Person): Variation {
  if (fullName(person).length > BANK_NAME_WIDTH) return 'truncated';
  const roll = random();
  if (roll < 0.45) return 'same';
  if (roll < 0.55) return 'initials';
  if (roll < 0.66) return 'title';
  if (roll < 0.75) return 'surname-first';
  if (roll < 0.9) return 'transliteration';
  return person.middle === '' ? 'same' : 'no-middle';
}

// ---- rows ----

interface PayeeRow {
  name: string;
  account: string;
  ifsc: string;
  amount: string;
  email: string;
}

interface RegistryRow {
  accountNumber: string;
  ifsc: string;
  name: string;
  status: 'VERIFIED' | 'NOT_VERIFIED';
}

function emailFor(random: Random, person: Person): string {
  const first = person.first.toLowerCase().replace(/[^a-z]/g, '');
  const last = (person.last === '' ? person.middle : person.last).toLowerCase().replace(/[^a-z]/g, '');
  const style = random();
  const domain = pick(random, ['gmail.com', 'gmail.com', 'gmail.com', 'yahoo.co.in', 'outlook.com', 'rediffmail.com', 'hotmail.com']);
  if (style < 0.5) return `${first}.${last}@${domain}`;
  if (style < 0.8) return `${first}${last}${intBetween(random, 1, 99)}@${domain}`;
  return `${first[0] ?? ''}${last}@${domain}`;
}

function amount(random: Random, min: number, max: number): string {
  // Payouts are usually whole rupees; some vendor bills carry paise.
  const rupees = intBetween(random, min, max);
  const paise = random() < 0.25 ? intBetween(random, 1, 99) : 0;
  return `${rupees}.${String(paise).padStart(2, '0')}`;
}

/** Someone else entirely, for the registry rows that are the fraud signal. */
function differentPerson(random: Random, person: Person): string {
  let other = makePerson(random, person.region);
  while (other.first === person.first) other = makePerson(random, person.region);
  // Half of them keep the surname: the spouse or a relative, the commonest real case.
  const last = random() < 0.5 && person.last !== '' ? person.last : other.last;
  return [other.first, other.middle, last].filter((part) => part !== '').join(' ').toUpperCase();
}

export interface Samples {
  payees: PayeeRow[];
  registry: RegistryRow[];
}

export function generateSamples(seed: number): Samples {
  const random = createRandom(seed);
  const usedAccounts = new Set<string>();
  const uniqueAccount = (length: number, ending: number | null): string => {
    let account = accountNumber(random, length, ending);
    while (usedAccounts.has(account)) account = accountNumber(random, length, ending);
    usedAccounts.add(account);
    return account;
  };

  const payees: PayeeRow[] = [];
  const registry: RegistryRow[] = [];
  const INDIVIDUALS = 150;
  const FRAUD_EVERY = 37; // a handful of holders who are not the payee
  const NOT_VERIFIED_EVERY = 41;

  for (let i = 0; i < INDIVIDUALS; i += 1) {
    const person = makePerson(random);
    const [ifsc, length] = pick(random, BRANCHES);
    const account = uniqueAccount(length, null);
    payees.push({ name: fullName(person), account, ifsc, amount: amount(random, 12_000, 185_000), email: emailFor(random, person) });
    if (i % NOT_VERIFIED_EVERY === 17) {
      registry.push({ accountNumber: account, ifsc, name: bankName(random, person, 'same'), status: 'NOT_VERIFIED' });
    } else if (i % FRAUD_EVERY === 11) {
      registry.push({ accountNumber: account, ifsc, name: differentPerson(random, person), status: 'VERIFIED' });
    } else {
      registry.push({ accountNumber: account, ifsc, name: bankName(random, person, pickVariation(random, person)), status: 'VERIFIED' });
    }
  }

  for (const [name, domain, held] of BUSINESSES) {
    const [ifsc, length] = pick(random, BRANCHES);
    const account = uniqueAccount(length, null);
    payees.push({ name, account, ifsc, amount: amount(random, 2_500, 475_000), email: `${pick(random, ['accounts', 'billing', 'info', 'finance'])}@${domain}` });
    registry.push({ accountNumber: account, ifsc, name: held, status: 'VERIFIED' });
  }

  // Sandbox test accounts: the outcome comes from the last two digits, not from the registry,
  // except for the ones that eventually verify (93, 95, 96, 97), whose holder name we give.
  for (const ending of TEST_ENDINGS) {
    for (let copy = 0; copy < ROWS_PER_TEST_ENDING; copy += 1) {
      const person = makePerson(random);
      const [ifsc, length] = pick(random, BRANCHES);
      const account = uniqueAccount(length, ending);
      payees.push({ name: fullName(person), account, ifsc, amount: amount(random, 12_000, 95_000), email: emailFor(random, person) });
      if (ending === 93 || ending === 95 || ending === 96 || ending === 97) {
        registry.push({ accountNumber: account, ifsc, name: bankName(random, person, 'same'), status: 'VERIFIED' });
      }
    }
  }

  // Exact duplicates (same payee pasted twice): one API call must serve every copy.
  const duplicateSources = [3, 18, 18, 42, 77, 151];
  for (const index of duplicateSources) {
    const source = payees[index];
    if (source !== undefined) payees.push({ ...source });
  }

  // Rows a spreadsheet damaged, or a person mistyped: caught locally, no call, no rupee.
  const damaged = (account: string, ifsc: string): void => {
    const person = makePerson(random);
    payees.push({ name: fullName(person), account, ifsc, amount: amount(random, 12_000, 95_000), email: emailFor(random, person) });
  };
  damaged('1.23457E+11', 'SBIN0001234'); // Excel's scientific notation
  damaged('123456789012345000', 'HDFC0000123'); // Excel keeps 15 digits, then zeros
  damaged('50100234567812', 'HDFC000123'); // IFSC one character short
  damaged('12345ABC6789', 'ICIC0001234'); // letters in the account number
  damaged('', 'UTIB0000456'); // no account number at all
  {
    // Valid once trimmed and upper-cased.
    const person = makePerson(random);
    const account = uniqueAccount(11, null);
    payees.push({ name: fullName(person), account, ifsc: ' sbin0004266 ', amount: amount(random, 12_000, 95_000), email: emailFor(random, person) });
    registry.push({ accountNumber: account, ifsc: 'SBIN0004266', name: bankName(random, person, 'same'), status: 'VERIFIED' });
  }
  {
    // Excel's "keep the leading zeros" trick.
    const person = makePerson(random);
    payees.push({ name: fullName(person), account: '="001234567890"', ifsc: 'CNRB0001234', amount: amount(random, 12_000, 95_000), email: emailFor(random, person) });
  }

  // Interleave deterministically so special rows are not all at the end.
  const shuffled = payees.map((row, index) => ({ row, key: createRandom(seed ^ (index * 2_654_435_761))() }));
  shuffled.sort((a, b) => a.key - b.key);
  return { payees: shuffled.map(({ row }) => row), registry };
}

function main(): void {
  const seed = Number(process.argv[2] ?? DEFAULT_SEED);
  const { payees, registry } = generateSamples(seed);
  const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
  writeFileSync(
    here('./payees.csv'),
    stringify(
      payees.map((row) => [row.name, row.account, row.ifsc, row.amount, row.email]),
      { header: true, columns: ['Payee Name', 'Account No', 'IFSC Code', 'Amount', 'Email'] },
    ),
  );
  writeFileSync(
    here('./accounts.csv'),
    stringify(
      registry.map((row) => [row.accountNumber, row.ifsc, row.name, row.status]),
      { header: true, columns: ['accountNumber', 'ifsc', 'name', 'status'] },
    ),
  );
  console.log(`wrote samples/payees.csv (${payees.length} rows) and samples/accounts.csv (${registry.length} rows), seed ${seed}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
