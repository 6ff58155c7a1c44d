/**
 * Name tables for generated account holders and document owners. Grouped by community because
 * Indian naming conventions differ by region (initials first in Tamil Nadu, SINGH/KAUR for
 * Sikhs, patronymics in Kerala…) and a name matcher has to cope with all of them.
 */
import { pick, randomFor, type Random } from '../prng.js';

export type Gender = 'M' | 'F';

interface Community {
  readonly key: string;
  /** Relative share among generated people. */
  readonly weight: number;
  readonly male: readonly string[];
  readonly female: readonly string[];
  readonly surnames: readonly string[];
  /** How a full name is put together in this community. */
  readonly compose: (random: Random, first: string, gender: Gender, surname: string) => string;
}

const initial = (word: string): string => word.charAt(0);

// FIRST LAST, sometimes FIRST KUMAR LAST or R K LAST, as northern banks print them.
function composeNorth(random: Random, first: string, gender: Gender, surname: string): string {
  const roll = random();
  if (roll < 0.12) return `${initial(first)} ${pick(random, INITIAL_LETTERS)} ${surname}`;
  if (roll < 0.3 && gender === 'M') return `${first} KUMAR ${surname}`;
  if (roll < 0.36 && gender === 'M') return `${first} KUMAR`;
  if (roll < 0.2 && gender === 'F') return `${first} DEVI`;
  return `${first} ${surname}`;
}

// Tamil names usually carry the father's initial, before or after the given name.
function composeTamil(random: Random, first: string, _gender: Gender, surname: string): string {
  const roll = random();
  const father = initial(surname);
  if (roll < 0.45) return `${father} ${first}`;
  if (roll < 0.75) return `${first} ${father}`;
  if (roll < 0.85) return `${father} ${pick(random, INITIAL_LETTERS)} ${first}`;
  return `${first} ${surname}`;
}

// Telugu and Kannada names often lead with the family (house) name initial.
function composeDeccan(random: Random, first: string, _gender: Gender, surname: string): string {
  const roll = random();
  if (roll < 0.25) return `${pick(random, INITIAL_LETTERS)} ${first} ${surname}`;
  if (roll < 0.4) return `${pick(random, INITIAL_LETTERS)} ${first}`;
  return `${first} ${surname}`;
}

function composeSikh(random: Random, first: string, gender: Gender, surname: string): string {
  const religious = gender === 'M' ? 'SINGH' : 'KAUR';
  return random() < 0.55 ? `${first} ${religious}` : `${first} ${religious} ${surname}`;
}

function composeMuslim(random: Random, first: string, gender: Gender, surname: string): string {
  const roll = random();
  if (gender === 'M' && roll < 0.2) return `MOHAMMED ${first} ${surname}`;
  if (gender === 'M' && roll < 0.3) return `MD ${first}`;
  if (gender === 'F' && roll < 0.2) return `${first} BEGUM`;
  if (gender === 'F' && roll < 0.3) return `${first} KHATOON`;
  return `${first} ${surname}`;
}

// Marathi names put the father's (or husband's) given name in the middle.
function composeMarathi(random: Random, first: string, _gender: Gender, surname: string): string {
  const roll = random();
  if (roll < 0.4) return `${first} ${pick(random, MARATHI.male)} ${surname}`;
  if (roll < 0.5) return `${surname} ${first} ${pick(random, MARATHI.male)}`;
  return `${first} ${surname}`;
}

// Kerala: given name plus house name / father's name, or a baptismal name for Christians.
function composeKerala(random: Random, first: string, _gender: Gender, surname: string): string {
  const roll = random();
  if (roll < 0.3) return `${first} ${initial(surname)}`;
  if (roll < 0.45) return `${initial(surname)} ${pick(random, INITIAL_LETTERS)} ${first}`;
  return `${first} ${surname}`;
}

function composePlain(random: Random, first: string, _gender: Gender, surname: string): string {
  return random() < 0.1 ? `${initial(first)} ${surname}` : `${first} ${surname}`;
}

const INITIAL_LETTERS = ['A', 'B', 'C', 'D', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'R', 'S', 'T', 'V'] as const;

const HINDI: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['RAVI', 'SANJAY', 'RAJESH', 'AMIT', 'SUNIL', 'VIJAY', 'RAKESH', 'MANOJ', 'ANIL', 'ASHOK', 'DEEPAK', 'PANKAJ',
    'ALOK', 'VIKAS', 'ROHIT', 'ABHISHEK', 'ANKIT', 'GAURAV', 'SAURABH', 'NITIN', 'PRAVEEN', 'RAHUL', 'ARUN', 'DINESH',
    'MUKESH', 'SURESH', 'RAMESH', 'SHYAM', 'MOHAN', 'YOGESH', 'HARISH', 'KAMLESH', 'VIVEK', 'ADITYA', 'ARJUN', 'KUNAL'],
  female: ['SUNITA', 'ANITA', 'POOJA', 'PRIYA', 'NEHA', 'REKHA', 'KAVITA', 'SEEMA', 'MEENA', 'RITU', 'ANJALI', 'SHALINI',
    'SAVITA', 'NISHA', 'SARITA', 'PREETI', 'SONIA', 'ARCHANA', 'MAMTA', 'RASHMI', 'SHWETA', 'DIVYA', 'KOMAL', 'ANSHIKA'],
  surnames: ['SHARMA', 'VERMA', 'GUPTA', 'SINGH', 'YADAV', 'MISHRA', 'TIWARI', 'PANDEY', 'SRIVASTAVA', 'CHAUHAN',
    'TRIPATHI', 'DUBEY', 'SAXENA', 'AGARWAL', 'JAIN', 'RASTOGI', 'CHAUDHARY', 'THAKUR', 'RAJPUT', 'KUSHWAHA', 'MAURYA',
    'BANSAL', 'GOEL', 'MITTAL', 'KHANNA', 'MALHOTRA', 'KAPOOR', 'ARORA', 'BHATIA', 'SETHI'],
};

const TAMIL: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['KARTHIK', 'SENTHIL', 'MURUGAN', 'ARUN', 'SARAVANAN', 'VENKATESH', 'BALAJI', 'GANESH', 'PRAKASH', 'RAJKUMAR',
    'SELVAM', 'KUMARESAN', 'ANBU', 'ELANGO', 'THIRUMALAI', 'VIGNESH', 'DINESH', 'MANIKANDAN', 'SURESH', 'SATHISH'],
  female: ['LAKSHMI', 'MEENAKSHI', 'KAVITHA', 'DEEPA', 'PRIYA', 'SANGEETHA', 'REVATHI', 'SELVI', 'VIJAYALAKSHMI',
    'ANITHA', 'GOWRI', 'THENMOZHI', 'MALATHI', 'BHUVANESWARI', 'DIVYA', 'SARANYA'],
  surnames: ['RAMASAMY', 'SUBRAMANIAN', 'KRISHNAN', 'NATARAJAN', 'SUNDARAM', 'PALANISAMY', 'GOVINDARAJ', 'ARUMUGAM',
    'RAJENDRAN', 'SHANMUGAM', 'VENKATARAMAN', 'MUTHUSAMY', 'PERUMAL', 'KANNAN', 'IYER', 'IYENGAR'],
};

const TELUGU: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['SRINIVAS', 'VENKATA', 'RAMAKRISHNA', 'NAGARAJU', 'SATYANARAYANA', 'RAVI TEJA', 'KIRAN', 'SURESH', 'MAHESH',
    'PRASAD', 'CHANDRA SEKHAR', 'HARI KRISHNA', 'SRIKANTH', 'ANJANEYULU', 'NARESH', 'PAVAN'],
  female: ['LAKSHMI', 'PADMA', 'SUJATHA', 'SRIDEVI', 'SWAPNA', 'ANURADHA', 'RAMADEVI', 'HARITHA', 'SIREESHA', 'MADHAVI',
    'SRAVANI', 'BHAVANI'],
  surnames: ['REDDY', 'NAIDU', 'RAO', 'CHOWDARY', 'VARMA', 'RAJU', 'GOUD', 'YADAV', 'SASTRY', 'KUMAR', 'MURTHY', 'BABU'],
};

const KANNADA: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['MANJUNATH', 'BASAVARAJ', 'NAGESH', 'SHIVAKUMAR', 'RAGHAVENDRA', 'GIRISH', 'PRASANNA', 'SUDEEP', 'YOGESH',
    'MAHANTESH', 'CHANDRASHEKAR', 'SANTOSH'],
  female: ['SHILPA', 'KAVYA', 'SUMA', 'ROOPA', 'NETHRAVATHI', 'PUSHPA', 'GEETHA', 'ASHWINI', 'BHAGYA', 'SAVITHA'],
  surnames: ['GOWDA', 'HEGDE', 'SHETTY', 'RAO', 'BHAT', 'KAMATH', 'PATIL', 'NAIK', 'KULKARNI', 'POOJARY', 'ACHARYA'],
};

const MALAYALI: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['RAJEEV', 'SURESH', 'ANIL', 'SREEJITH', 'VINOD', 'PRADEEP', 'UNNIKRISHNAN', 'GOPAKUMAR', 'BIJU', 'SAJI',
    'ANOOP', 'JITHIN', 'SHIBU', 'RENJITH'],
  female: ['SREELEKHA', 'BINDU', 'LATHA', 'SINDHU', 'REMYA', 'DIVYA', 'ANJU', 'SHEEBA', 'AMBILI', 'SOUMYA', 'ASWATHY'],
  surnames: ['NAIR', 'MENON', 'PILLAI', 'KURUP', 'NAMBIAR', 'PANICKER', 'WARRIER', 'KUMAR', 'NAMBOOTHIRI', 'THAMPI'],
};

const CHRISTIAN: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['JOSEPH', 'THOMAS', 'GEORGE', 'MATHEW', 'JOHN', 'PETER', 'FRANCIS', 'ANTONY', 'SEBASTIAN', 'PAUL', 'JOSE',
    'AUGUSTINE', 'VINCENT', 'SAVIO', 'LAWRENCE'],
  female: ['MARY', 'ANNAMMA', 'ELIZABETH', 'ROSAMMA', 'MERCY', 'SHERIN', 'JANCY', 'TERESA', 'SUSAN', 'LEENA', 'CELINE',
    'PRIYA', 'REENA'],
  surnames: ['VARGHESE', 'KURIAN', 'CHACKO', 'ABRAHAM', 'JACOB', 'PHILIP', 'MATHEW', 'DSOUZA', 'FERNANDES', 'PEREIRA',
    'RODRIGUES', 'D COSTA', 'GONSALVES', 'PINTO', 'LOBO', 'MASCARENHAS'],
};

const MUSLIM: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['IRFAN', 'ASLAM', 'IMRAN', 'SALIM', 'FAROOQ', 'JAVED', 'SHAHID', 'ZAHEER', 'NADEEM', 'ARSHAD', 'RIYAZ',
    'SAJID', 'WASIM', 'ABDUL RAHMAN', 'ABDUL KAREEM', 'YUSUF', 'ANWAR', 'SHOAIB'],
  female: ['FATIMA', 'AYESHA', 'NAZIA', 'SHABANA', 'RUKHSANA', 'NASREEN', 'SAMEENA', 'ZAINAB', 'TABASSUM', 'HEENA',
    'FARHANA', 'SHAHEEN'],
  surnames: ['SHAIKH', 'KHAN', 'ANSARI', 'QURESHI', 'SIDDIQUI', 'PATHAN', 'SYED', 'MIRZA', 'HUSSAIN', 'AHMED', 'MALIK',
    'MEMON', 'BEG', 'RIZVI'],
};

const SIKH: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['GURPREET', 'HARPREET', 'MANPREET', 'JASPREET', 'AMARJIT', 'BALWINDER', 'KULDEEP', 'SUKHWINDER', 'HARJEET',
    'RANJIT', 'PARAMJIT', 'TEJINDER', 'INDERJIT', 'NAVDEEP'],
  female: ['GURPREET', 'HARPREET', 'MANPREET', 'JASPREET', 'SIMRAN', 'NAVNEET', 'RAJWINDER', 'AMANDEEP', 'KULWANT',
    'BALJIT', 'PARMINDER'],
  surnames: ['GILL', 'SANDHU', 'DHILLON', 'SIDHU', 'GREWAL', 'BRAR', 'BAJWA', 'SODHI', 'CHAHAL', 'BEDI', 'AHLUWALIA',
    'RANDHAWA'],
};

const BENGALI: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['SOUMYA', 'ARINDAM', 'DEBASHIS', 'PARTHA', 'SUBRATA', 'TAPAS', 'ABHIJIT', 'SANDIP', 'KAUSHIK', 'INDRANIL',
    'PRASENJIT', 'SUMAN', 'SUDIPTO', 'ANIRBAN'],
  female: ['MOUMITA', 'RUPA', 'SUPRIYA', 'TANIA', 'PAPIYA', 'SUSMITA', 'ANINDITA', 'RITUPARNA', 'SOMA', 'MITALI',
    'DEBJANI', 'SHREYA'],
  surnames: ['CHATTERJEE', 'BANERJEE', 'MUKHERJEE', 'GHOSH', 'BOSE', 'SEN', 'DAS', 'DUTTA', 'ROY', 'CHAKRABORTY',
    'BHATTACHARYA', 'SAHA', 'MONDAL', 'PAL', 'SARKAR'],
};

const MARATHI: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['SACHIN', 'GANESH', 'SANTOSH', 'PRASHANT', 'VISHAL', 'SWAPNIL', 'MAHESH', 'NILESH', 'DATTATRAY', 'VITTHAL',
    'SHIRISH', 'ONKAR', 'TUSHAR', 'AMOL'],
  female: ['ASHWINI', 'SUPRIYA', 'MANISHA', 'VAISHALI', 'SNEHAL', 'MADHURI', 'SHUBHANGI', 'PRAJAKTA', 'RUPALI',
    'SAYALI', 'KAVERI'],
  surnames: ['PATIL', 'DESHMUKH', 'KULKARNI', 'JOSHI', 'PAWAR', 'SHINDE', 'JADHAV', 'GAIKWAD', 'KALE', 'MORE',
    'DESHPANDE', 'CHAVAN', 'SAWANT', 'BHOSALE', 'KADAM'],
};

const GUJARATI: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['HARSHAD', 'JIGNESH', 'BHAVESH', 'KETAN', 'NIRAV', 'CHIRAG', 'HITESH', 'PARESH', 'MEHUL', 'DHAVAL', 'RAKESH',
    'KALPESH'],
  female: ['HETAL', 'JAYSHREE', 'FALGUNI', 'BHAVNA', 'DIMPLE', 'KINJAL', 'NEHAL', 'RINKU', 'URVASHI', 'TRUPTI'],
  surnames: ['PATEL', 'SHAH', 'MEHTA', 'DESAI', 'PANDYA', 'TRIVEDI', 'PARIKH', 'MODI', 'SONI', 'THAKKAR', 'DAVE',
    'VYAS', 'BHATT', 'CHAUDHARI'],
};

const EAST: Omit<Community, 'key' | 'weight' | 'compose'> = {
  male: ['BIJAY', 'PRADEEP', 'SUBHASH', 'MANAS', 'BIBHUTI', 'DIPAK', 'HEMANTA', 'BHASKAR', 'PRANJAL', 'DHRUBA',
    'RAJIB', 'NILOTPAL'],
  female: ['SASMITA', 'MONALISA', 'SWAGATIKA', 'PRIYANKA', 'BANDANA', 'NANDITA', 'JUNMONI', 'PALLAVI', 'ROSALIN'],
  surnames: ['MOHANTY', 'PATTNAIK', 'SAHOO', 'PANDA', 'MISHRA', 'NAYAK', 'DAS', 'BORA', 'GOGOI', 'BARUAH', 'SAIKIA',
    'KALITA', 'HAZARIKA', 'BEHERA'],
};

const COMMUNITIES: readonly Community[] = [
  { key: 'hindi', weight: 26, compose: composeNorth, ...HINDI },
  { key: 'tamil', weight: 8, compose: composeTamil, ...TAMIL },
  { key: 'telugu', weight: 7, compose: composeDeccan, ...TELUGU },
  { key: 'kannada', weight: 5, compose: composeDeccan, ...KANNADA },
  { key: 'malayali', weight: 5, compose: composeKerala, ...MALAYALI },
  { key: 'christian', weight: 4, compose: composePlain, ...CHRISTIAN },
  { key: 'muslim', weight: 12, compose: composeMuslim, ...MUSLIM },
  { key: 'sikh', weight: 5, compose: composeSikh, ...SIKH },
  { key: 'bengali', weight: 8, compose: composePlain, ...BENGALI },
  { key: 'marathi', weight: 9, compose: composeMarathi, ...MARATHI },
  { key: 'gujarati', weight: 7, compose: composePlain, ...GUJARATI },
  { key: 'east', weight: 4, compose: composePlain, ...EAST },
];

const TOTAL_WEIGHT = COMMUNITIES.reduce((sum, c) => sum + c.weight, 0);

function pickCommunity(random: Random): Community {
  let roll = random() * TOTAL_WEIGHT;
  for (const community of COMMUNITIES) {
    roll -= community.weight;
    if (roll < 0) return community;
  }
  return COMMUNITIES[0] as Community;
}

// ---- businesses: current accounts are a real share of any payee list ----

const BUSINESS_WORDS = ['GANESH', 'LAKSHMI', 'BALAJI', 'SAI', 'OM', 'SHREE', 'JAI AMBE', 'MAHALAXMI', 'VINAYAKA',
  'KRISHNA', 'DURGA', 'ANNAPURNA', 'SIDDHI VINAYAK', 'SRI RAM', 'NEW INDIA', 'SUNRISE', 'GALAXY', 'ROYAL', 'STAR',
  'GREEN VALLEY', 'BHARAT', 'NATIONAL', 'UNITED', 'PIONEER'] as const;
const BUSINESS_TRADES = ['TRADERS', 'ENTERPRISES', 'AGENCIES', 'TEXTILES', 'ELECTRICALS', 'HARDWARE', 'MEDICALS',
  'CONSTRUCTIONS', 'LOGISTICS', 'FOODS', 'AUTOMOBILES', 'PHARMA', 'INFOTECH', 'SOLUTIONS', 'STEELS', 'JEWELLERS',
  'TRANSPORT', 'SWEETS', 'PACKAGING', 'EXPORTS'] as const;
const BUSINESS_SUFFIXES = ['PVT LTD', 'PRIVATE LIMITED', 'LLP', 'LIMITED', '', '', ''] as const;

function businessName(random: Random): string {
  const roll = random();
  const trade = pick(random, BUSINESS_TRADES);
  const suffix = pick(random, BUSINESS_SUFFIXES);
  const withSuffix = (base: string): string => (suffix === '' ? base : `${base} ${suffix}`);
  if (roll < 0.3) {
    const community = pickCommunity(random);
    return withSuffix(`${pick(random, community.surnames)} ${trade}`);
  }
  if (roll < 0.55) return `M/S ${pick(random, BUSINESS_WORDS)} ${trade}`;
  if (roll < 0.7) return `SRI ${pick(random, BUSINESS_WORDS)} ${trade}`;
  if (roll < 0.85) {
    const community = pickCommunity(random);
    return `${pick(random, community.surnames)} & SONS`;
  }
  return withSuffix(`${pick(random, BUSINESS_WORDS)} ${trade}`);
}

function toTitleCase(name: string): string {
  return name
    .split(' ')
    .map((word) => (word.length <= 1 ? word : word.charAt(0) + word.slice(1).toLowerCase()))
    .join(' ');
}

/** A generated person: used for account holders and for document-locker documents. */
export interface Person {
  readonly name: string;
  readonly gender: Gender;
}

/** Deterministic individual (never a business) for a key; names UPPER CASE. */
export function personFor(key: string, seed = 1): Person {
  const random = randomFor(`person:${key}`, seed);
  const community = pickCommunity(random);
  const gender: Gender = random() < 0.58 ? 'M' : 'F';
  const first = pick(random, gender === 'M' ? community.male : community.female);
  const surname = pick(random, community.surnames);
  return { name: community.compose(random, first, gender, surname), gender };
}

/**
 * Deterministic realistic account-holder name for an account number: about one in ten is a
 * business, most are UPPER CASE as banks return them, a few come back in Title Case.
 * @param seed sandbox seed; default 1.
 */
export function holderNameFor(accountNumber: string, seed = 1): string {
  const random = randomFor(`holder:${accountNumber}`, seed);
  const isBusiness = random() < 0.1;
  const name = isBusiness ? businessName(random) : personFor(accountNumber, seed).name;
  return random() < 0.08 ? toTitleCase(name) : name;
}

/** A male given name of the community that carries `surname` (any community's when none does): a father's or husband's name. */
export function maleNameFor(random: Random, surname: string): string {
  const community = COMMUNITIES.find((c) => c.surnames.includes(surname)) ?? pickCommunity(random);
  return pick(random, community.male);
}

// A given name only one gender carries in the tables (GURPREET, LAKSHMI… are both or ambiguous).
const GENDER_BY_NAME: ReadonlyMap<string, Gender> = (() => {
  const male = new Set(COMMUNITIES.flatMap((c) => c.male));
  const female = new Set(COMMUNITIES.flatMap((c) => c.female));
  const byName = new Map<string, Gender>();
  for (const name of male) if (!female.has(name)) byName.set(name, 'M');
  for (const name of female) if (!male.has(name)) byName.set(name, 'F');
  return byName;
})();
/** Words that end women's names and are no surname (SUNITA DEVI, JASLEEN KAUR). */
export const FEMALE_MARKERS: ReadonlySet<string> = new Set(['KAUR', 'DEVI', 'BEGUM', 'KHATOON', 'BIBI', 'BAI']);

/** The gender an (upper-case) name's words tell by its given name (its first word longer than an initial) or KAUR/DEVI/BEGUM, or undefined when they do not. */
export function givenNameGender(words: readonly string[]): Gender | undefined {
  if (words.some((w) => FEMALE_MARKERS.has(w))) return 'F';
  // The first word that is more than an initial is the given name (R SENTHIL, K LAKSHMI).
  const given = words.find((w) => w.length > 1);
  return given === undefined ? undefined : GENDER_BY_NAME.get(given);
}
