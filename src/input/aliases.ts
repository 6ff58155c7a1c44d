/**
 * The one alias table: which header names the account number, the IFSC and the payee's name in
 * the files Indian finance teams have (bank bulk-upload and beneficiary templates, payout
 * platforms, ERPs, accounting and payroll tools). test/fixtures/layouts/README.md lists the
 * layouts it was built from. A new layout needs one line in ALIASES (or one word in a qualifier
 * list); headers are compared after `headerKey`, so case, underscores, spacing, `#`, `/`, `.`,
 * `-` and camelCase do not matter.
 */

export type Role = 'account' | 'ifsc' | 'name';

/**
 * How strongly a header claims its role. A payee-qualified header (beneficiary, payee, bene,
 * vendor, fund account…) beats a plain one, a plain one beats a weak one; a payer-qualified
 * header (debit, remitter, RazorpayX…) is the payer's own and is never taken unless named.
 */
export type Rank = 'record' | 'payee' | 'plain' | 'weak' | 'payer';

/**
 * `record`: the name as the bank has it ("Name As Per Bank Records", "Account Holder Name",
 * "Account Name"): what the verification answers with, so the best name to match against.
 */
export const RANK_ORDER: Readonly<Record<Rank, number>> = { record: 4, payee: 3, plain: 2, weak: 1, payer: 0 };

export interface Alias {
  /** The header as it is written in the layouts (normalised with headerKey when compared). */
  readonly header: string;
  readonly role: Role;
  readonly rank: Rank;
  /** Where it is seen; for people reading the table. */
  readonly seen: string;
}

/**
 * Spellings of the three columns. A qualifier in front (or behind: "Name of Beneficiary") of any
 * of these is recognised without its own line: see PAYEE_QUALIFIERS and PAYER_QUALIFIERS.
 */
export const ALIASES: readonly Alias[] = [
  // account number
  { header: 'Account Number', role: 'account', rank: 'plain', seen: 'most exports; a bare one may be the payer\'s (RazorpayX)' },
  { header: 'Account', role: 'account', rank: 'weak', seen: 'short exports' },
  { header: 'Bank Account Number', role: 'account', rank: 'plain', seen: 'Zoho Payroll, Keka, greytHR' },
  { header: 'Bank Account', role: 'account', rank: 'plain', seen: 'SAP LFBK (BANKN label), Odoo' },
  { header: 'Bank Account Details - A/c No.', role: 'account', rank: 'plain', seen: 'TallyPrime ledger export' },
  { header: 'Bank A/c Number', role: 'account', rank: 'plain', seen: 'payroll exports' },
  { header: 'Account Number (Bank)', role: 'account', rank: 'plain', seen: 'HRMS exports' },
  { header: 'BANKN', role: 'account', rank: 'plain', seen: 'SAP vendor bank table LFBK, technical name' },
  { header: 'Salary Account Number', role: 'account', rank: 'payee', seen: 'payroll bank advice' },
  { header: "Mandate Holder's Account No", role: 'account', rank: 'payee', seen: 'SBI e-mandate debit file' },
  // IFSC
  { header: 'IFSC', role: 'ifsc', rank: 'plain', seen: 'most exports' },
  { header: 'IFSC Code', role: 'ifsc', rank: 'plain', seen: 'most exports' },
  { header: 'IFSC Number', role: 'ifsc', rank: 'plain', seen: 'the verification API\'s own name' },
  { header: 'IFSC No', role: 'ifsc', rank: 'plain', seen: 'bank advice' },
  { header: 'Bank IFSC', role: 'ifsc', rank: 'plain', seen: 'Cashfree (bank_ifsc), Axis (Bene Bank IFSC)' },
  { header: 'Bank IFSC Code', role: 'ifsc', rank: 'plain', seen: 'ICICI CIB (Beneficiary Bank IFSC Code)' },
  { header: 'Branch IFSC', role: 'ifsc', rank: 'plain', seen: 'ERP vendor masters' },
  { header: 'IFC Code', role: 'ifsc', rank: 'plain', seen: 'HDFC ENet' },
  { header: 'IFS Code', role: 'ifsc', rank: 'plain', seen: 'TallyPrime' },
  { header: 'RTGS/NEFT IFSC', role: 'ifsc', rank: 'plain', seen: 'bank templates' },
  { header: 'Bank Key', role: 'ifsc', rank: 'weak', seen: 'SAP LFBK (BANKL label): the IFSC for Indian banks' },
  { header: 'BANKL', role: 'ifsc', rank: 'weak', seen: 'SAP vendor bank table LFBK, technical name' },
  { header: 'Branch Number', role: 'ifsc', rank: 'weak', seen: 'Oracle EBS bank branches: India puts the IFSC there' },
  { header: 'Branch Code', role: 'ifsc', rank: 'weak', seen: 'Pine Labs Plural (branchCode)' },
  { header: 'IFSC/MICR', role: 'ifsc', rank: 'plain', seen: 'NACH mandate sheets (values mix IFSC and MICR)' },
  { header: 'MICR/IFSC', role: 'ifsc', rank: 'plain', seen: 'NACH mandate sheets' },
  { header: 'Bank MICR / IFSC', role: 'ifsc', rank: 'plain', seen: 'Citi NACH registration file' },
  { header: 'Bank Branch IFSC', role: 'ifsc', rank: 'plain', seen: 'Razorpay linked accounts (bank_branch_ifsc)' },
  { header: 'Bank Identifier Code', role: 'ifsc', rank: 'weak', seen: 'ERP bank masters (the IFSC for Indian banks)' },
  { header: 'Bank Account Details - IFS Code', role: 'ifsc', rank: 'plain', seen: 'TallyPrime ledger export' },
  // payee name
  { header: 'Name', role: 'name', rank: 'weak', seen: 'short exports' },
  { header: 'Full Name', role: 'name', rank: 'weak', seen: 'HR exports' },
  { header: 'Beneficiary', role: 'name', rank: 'weak', seen: 'bank templates' },
  { header: 'Payee', role: 'name', rank: 'weak', seen: 'bank templates' },
  { header: 'Customer Name', role: 'name', rank: 'weak', seen: 'refund files' },
  { header: 'Account Holder Name', role: 'name', rank: 'record', seen: 'Cashfree, payroll' },
  { header: 'Account Holder', role: 'name', rank: 'record', seen: 'SAP LFBK (KOINH label)' },
  { header: "A/c Holder's Name", role: 'name', rank: 'record', seen: 'TallyPrime' },
  { header: 'Holder Name', role: 'name', rank: 'record', seen: 'bank templates' },
  { header: 'KOINH', role: 'name', rank: 'record', seen: 'SAP vendor bank table LFBK, technical name' },
  // Plain, not record: in Razorpay's linked accounts `account_name` is the business, `beneficiary_name` the holder.
  { header: 'Account Name', role: 'name', rank: 'plain', seen: 'bank templates, Razorpay linked accounts (account_name)' },
  { header: 'Bank Account Name', role: 'name', rank: 'record', seen: 'Razorpay linked accounts (bank_account_name)' },
  { header: "Mandate Holder's Name", role: 'name', rank: 'record', seen: 'SBI e-mandate debit file' },
  { header: 'Narration/Name', role: 'name', rank: 'weak', seen: 'bank NEFT upload sheets (NARRATION/NAME (NOT MORE THAN 20))' },
  { header: 'Name As Per Bank Records', role: 'name', rank: 'record', seen: 'greytHR' },
  { header: 'Name As Per Bank', role: 'name', rank: 'record', seen: 'payroll exports' },
  { header: 'Name In Bank', role: 'name', rank: 'record', seen: 'payroll exports' },
  { header: 'Name As In Bank Account', role: 'name', rank: 'record', seen: 'payroll exports' },
  { header: 'Name As Per Bank Account', role: 'name', rank: 'record', seen: 'payroll exports ("Name as per Bank A/c")' },
  { header: 'Bank Account Holder Name', role: 'name', rank: 'record', seen: 'vendor masters ("Bank A/c Holder Name")' },
  { header: 'Name Of Account Holder', role: 'name', rank: 'record', seen: 'bank forms' },
  { header: 'Name Of The Account Holder', role: 'name', rank: 'record', seen: 'bank forms' },
  { header: 'Account Details', role: 'account', rank: 'weak', seen: 'payroll exports' },
  { header: 'SB No', role: 'account', rank: 'plain', seen: 'payroll and pension sheets (savings bank account number)' },
  { header: 'SB Account', role: 'account', rank: 'plain', seen: 'payroll and pension sheets' },
  { header: 'Passbook No', role: 'account', rank: 'plain', seen: 'scheme and cooperative sheets (the account number in the passbook)' },
  { header: 'Bank Passbook No', role: 'account', rank: 'plain', seen: 'scheme disbursement sheets' },
  { header: 'Bank Account Details', role: 'account', rank: 'weak', seen: 'payroll exports' },
  // Indian languages: Hindi, Marathi, Bengali, Gujarati, Tamil, Telugu, Kannada, Malayalam, Punjabi
  // (state scheme and cooperative-bank sheets are often headed in the state's language).
  ...indic('account', 'plain', ['खाता संख्या', 'खाता नंबर', 'खाता क्रमांक', 'बैंक खाता संख्या', 'खाते क्रमांक', 'खाता सं', 'खाता नं', 'खाता क्र', 'बैंक खाता सं', 'बैंक खाता नं', 'बैंक खाता', 'खाता', 'अकाउंट नंबर', 'बँक खाते क्रमांक', 'হিসাব নম্বর', 'অ্যাকাউন্ট নম্বর', 'ব্যাংক হিসাব নম্বর', 'ખાતા નંબર', 'ખાતા ક્રમાંક', 'கணக்கு எண்', 'வங்கி கணக்கு எண்', 'ఖాతా సంఖ్య', 'ఖాతా నంబర్', 'ಖಾತೆ ಸಂಖ್ಯೆ', 'ಖಾತೆ ನಂಬರ್', 'അക്കൗണ്ട് നമ്പർ', 'ഖാതാ നമ്പർ', 'ਖਾਤਾ ਨੰਬਰ']),
  ...indic('ifsc', 'plain', ['आईएफएससी', 'आईएफएससी कोड', 'आयएफएससी कोड', 'আইএফএসসি কোড', 'આઈએફએસસી કોડ', 'ஐஎஃப்எஸ்சி குறியீடு', 'ఐఎఫ్ఎస్సి కోడ్', 'ಐಎಫ್ಎಸ್ಸಿ ಕೋಡ್', 'ഐഎഫ്എസ്‌സി കോഡ്', 'ਆਈਐਫਐਸਸੀ ਕੋਡ']),
  ...indic('name', 'weak', ['नाम', 'नाव', 'নাম', 'નામ', 'பெயர்', 'పేరు', 'ಹೆಸರು', 'പേര്', 'ਨਾਮ']),
  ...indic('name', 'payee', ['लाभार्थी का नाम', 'लाभार्थी', 'लाभार्थीचे नाव', 'সুবিধাভোগীর নাম', 'લાભાર્થીનું નામ', 'பயனாளியின் பெயர்', 'లబ్ధిదారుని పేరు', 'ಫಲಾನುಭವಿಯ ಹೆಸರು', 'ഗുണഭോക്താവിന്റെ പേര്', 'ਲਾਭਪਾਤਰੀ ਦਾ ਨਾਮ']),
  ...indic('name', 'record', ['खाताधारक का नाम', 'खातेदाराचे नाव', 'হিসাবধারীর নাম', 'ખાતેદારનું નામ', 'கணக்கு வைத்திருப்பவர் பெயர்', 'ఖాతాదారుని పేరు', 'ಖಾತೆದಾರರ ಹೆಸರು']),
];

function indic(role: Role, rank: Rank, headers: readonly string[]): Alias[] {
  return headers.map((header) => ({ header, role, rank, seen: 'Indian-language sheets' }));
}

/**
 * Words that say a column is the payee's: "Beneficiary Account Number", "Bene_A/c No", "Vendor
 * IFSC", "Fund Account Number" (RazorpayX's payee), "Name of Beneficiary". Compared as header keys.
 * No "… bank" forms: "Beneficiary Bank Name" is the bank's name, not the payee's; the aliases
 * carry "Bank Account Number" and "Bank IFSC Code" themselves.
 */
export const PAYEE_QUALIFIERS: readonly string[] = [
  'beneficiary', 'payee', 'vendor', 'supplier', 'employee', 'fund account', 'fund', 'creditor', 'credit', 'receiver',
  'recipient', 'party', 'destination', 'to', 'worker', 'member', 'applicant', 'staff',
  // Whom a scheme or a stipend pays: DBT, scholarship, pension and contract-labour sheets. Not
  // "contractor": in a contract-labour sheet the contractor is the agency, not the worker paid.
  'student', 'scholar', 'pensioner', 'farmer', 'candidate', 'trainee', 'intern', 'labourer', 'laborer',
  // Beneficiary and recipient in Hindi, Marathi, Bengali, Gujarati, Tamil, Telugu, Kannada, Punjabi.
  'कर्मचारी', 'लाभार्थी', 'लाभार्थीचे', 'प्राप्तकर्ता', 'সুবিধাভোগী', 'প্রাপক', 'લાભાર્થી', 'பயனாளி', 'లబ్ధిదారు', 'ಫಲಾನುಭವಿ', 'ਲਾਭਪਾਤਰੀ',
];

/** Words that say a column is the payer's own account: never taken unless named. */
export const PAYER_QUALIFIERS: readonly string[] = [
  'debit', 'debtor', 'payer', 'remitter', 'remitting', 'sender', 'source', 'from', 'corporate', 'company',
  'razorpayx', 'our', 'originator', 'ordering', 'drawer', 'client', 'paying', 'funding', 'sponsor',
  // Sender, payer and debit in Hindi, Marathi, Bengali, Tamil.
  'प्रेषक', 'भुगतानकर्ता', 'डेबिट', 'नामे', 'प्रेषकाचे', 'প্রেরক', 'অনুপ্রেরক', 'அனுப்புநர்',
];

/** Word-level spellings, all mapped to one form before comparing. */
const WORDS: Readonly<Record<string, string>> = {
  acc: 'account', acct: 'account', accnt: 'account', ac: 'account', accounts: 'account',
  // Misspellings of account seen in payroll sheets.
  acount: 'account', accout: 'account', accunt: 'account', accont: 'account', acconut: 'account', accoount: 'account',
  accno: 'account number', acno: 'account number', acctno: 'account number', accountno: 'account number',
  accnum: 'account number', accountnum: 'account number', acnumber: 'account number', accnumber: 'account number',
  accountnumber: 'account number', bankaccountnumber: 'bank account number', bankaccount: 'bank account',
  no: 'number', num: 'number', nbr: 'number', nos: 'number', numbers: 'number',
  bene: 'beneficiary', benef: 'beneficiary', benf: 'beneficiary', ben: 'beneficiary', benificiary: 'beneficiary', beneficiery: 'beneficiary',
  beneficary: 'beneficiary', benficiary: 'beneficiary', beneficiaries: 'beneficiary',
  ifs: 'ifsc', ifc: 'ifsc', ifsccode: 'ifsc code', bankifsc: 'bank ifsc',
  holders: 'holder', emp: 'employee', vendors: 'vendor', dr: 'debit', cr: 'credit', benefciary: 'beneficiary',
  beneficiaryname: 'beneficiary name', accountholdername: 'account holder name', payeename: 'payee name',
  beneficiarys: 'beneficiary', ifscode: 'ifsc code',
};

/**
 * The comparison key of a header: NFKC, camelCase split, `A/c` → account, `#` → number,
 * possessives dropped, punctuation to spaces, words mapped through WORDS, single spaces.
 */
export function headerKey(text: string): string {
  const words = text
    .normalize('NFKC')
    // camelCase and acronyms: bankAccountNumber, beneficiaryIFSC, IFSCCode (RazorpayX is one word).
    .replace(/RazorpayX/gi, 'razorpayx')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/_/g, ' ')
    .replace(/\ba\s*\/\s*c\b|\ba\.c\./g, ' account ')
    .replace(/#/g, ' number ')
    .replace(/[’']s\b/g, 's')
    // Letters and digits of every script (Devanagari's vowel signs are marks, \p{M}).
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
  return words.map((w) => WORDS[w] ?? w).join(' ');
}

const INDEX: ReadonlyMap<string, Alias> = new Map(ALIASES.map((alias) => [headerKey(alias.header), alias]));
const PAYEE_KEYS = PAYEE_QUALIFIERS.map(headerKey).sort((a, b) => b.length - a.length);
const PAYER_KEYS = PAYER_QUALIFIERS.map(headerKey).sort((a, b) => b.length - a.length);

/**
 * The payee word a header holds, whatever else it says ("Employee", "Vendor", "Staff Name", "Name
 * of Beneficiary"): of several columns of names that no alias names, the payee's is the one whose
 * header says whose it is ("Manager Name" beside "Employee" is someone else's). Undefined when none.
 */
export function payeeWordIn(header: string): string | undefined {
  const key = ` ${headerKey(header)} `;
  return PAYEE_KEYS.find((q) => key.includes(` ${q} `));
}

export interface HeaderMeaning {
  role: Role;
  rank: Rank;
  /** Why, in words: "beneficiary-qualified account number". */
  why: string;
}

/**
 * Words that say a column repeats the account number (or the IFSC) to confirm it, as bank
 * bulk-upload and beneficiary templates ask ("Confirm Account Number", "Re-enter Account No",
 * "Retype A/c No.", "Account Number (Confirm)", "Verify Beneficiary Account Number", "Confirm IFSC
 * Code"), in front of or behind any account or IFSC header. Compared as header keys ("Re-Enter" and "ReEnter" are "re enter").
 */
export const CONFIRM_QUALIFIERS: readonly string[] = [
  'confirm', 'confirmed', 'confirmation', 'reconfirm', 're confirm', 're enter', 're entered', 'reenter', 'reentered', 'retype', 're type',
  'retyped', 'verify', 're verify', 'repeat', 'repeated', 'again', 'please confirm', 'confirm the', 're enter the', 'retype the',
  // Confirm, re-enter in Hindi and Marathi ("खाता संख्या की पुष्टि करें", "खाता संख्या पुनः दर्ज करें").
  'पुष्टि', 'पुष्टि करें', 'की पुष्टि करें', 'की पुष्टि', 'पुनः', 'पुनः दर्ज करें', 'पुन्हा',
];

const CONFIRM_KEYS = CONFIRM_QUALIFIERS.map(headerKey).sort((a, b) => b.length - a.length);

/**
 * Whether a header names a column that repeats the account number or the IFSC to confirm it: a
 * confirm word in front of or behind an account or IFSC header that is not the payer's ("Confirm
 * Debit Account" confirms nothing of the payee). The header's own meaning (role `account` or
 * `ifsc`, the field it confirms), qualifiers included, or undefined. Never the account or IFSC
 * column itself (src/input/recognise.ts).
 */
export function confirmMeaning(header: string): HeaderMeaning | undefined {
  const whole = confirmOfKey(headerKey(header));
  if (whole || !header.includes('(')) return whole;
  // "Confirm Account Number (Mandatory)"; "Account Number (Confirm)" is read whole above.
  const core = header.slice(0, header.indexOf('('));
  return core.trim() === '' ? undefined : confirmOfKey(headerKey(core));
}

function confirmOfKey(key: string): HeaderMeaning | undefined {
  for (const q of CONFIRM_KEYS) {
    let rest: string | undefined;
    if (key.startsWith(`${q} `)) rest = key.slice(q.length + 1);
    else if (key.endsWith(` ${q}`)) rest = key.slice(0, -q.length - 1).replace(/ (की|का|चा|to|for)$/, '');
    if (rest === undefined) continue;
    const meaning = meaningOfKey(rest);
    if ((meaning?.role !== 'account' && meaning?.role !== 'ifsc') || meaning.rank === 'payer') continue;
    return { role: meaning.role, rank: meaning.rank, why: `${meaning.why}, qualified by "${q}" (it confirms the ${meaning.role === 'account' ? 'account number' : 'IFSC'})` };
  }
  return undefined;
}

/**
 * What a header names, if anything: the alias it matches and how strongly, qualifiers included.
 * A header cell that carries instructions ("Beneficiary's Account Number (Mandatory) Typically
 * 9-18 digits") is read by the words before its first parenthesis when the whole does not match.
 * A confirm header ("Account Number (Confirm)", "Re-enter IFSC") names nothing here: see confirmMeaning.
 */
export function headerMeaning(header: string): HeaderMeaning | undefined {
  if (confirmMeaning(header) !== undefined) return undefined;
  const whole = meaningOfKey(headerKey(header));
  if (whole || !header.includes('(')) return whole;
  const core = header.slice(0, header.indexOf('('));
  return core.trim() === '' ? undefined : meaningOfKey(headerKey(core));
}

function meaningOfKey(key: string): HeaderMeaning | undefined {
  if (key === '') return undefined;
  const direct = INDEX.get(key);
  if (direct) return { role: direct.role, rank: direct.rank, why: `"${direct.header}" (${direct.rank})` };
  for (const [keys, rank] of [[PAYER_KEYS, 'payer'], [PAYEE_KEYS, 'payee']] as const) {
    for (const q of keys) {
      let rest: string | undefined;
      // "लाभार्थी का खाता संख्या": the possessive word after the qualifier (का, की, के, Marathi चा) goes too.
      if (key.startsWith(`${q} `)) rest = key.slice(q.length + 1).replace(/^(का|की|के|चा|ची|चे|এর|ના|નો|ની) /, '');
      else if (key.endsWith(` ${q}`)) rest = key.slice(0, -q.length - 1).replace(/ (of|to|for)$/, '');
      if (rest === undefined) continue;
      const alias = INDEX.get(rest);
      if (!alias) continue;
      // A payer word in front of a payee word ("Debit Beneficiary…") does not happen; a payee
      // qualifier never weakens a strong alias ("Beneficiary Name As Per Bank" stays payee).
      const qualified: Rank = rank === 'payer' ? 'payer' : alias.rank === 'record' ? 'record' : 'payee';
      return { role: alias.role, rank: qualified, why: `"${alias.header}" qualified by "${q}" (${qualified === 'payer' ? "the payer's own" : 'the payee\'s'})` };
    }
  }
  return byHead(key);
}

/**
 * Header words of someone else's name beside the payee's (a father, a nominee, a manager): such a
 * column is never taken as the payee's name by content (payroll, scholarship and pension sheets).
 */
export const OTHER_PERSON_WORDS = new Set(['father', 'fathers', 'mother', 'mothers', 'husband', 'husbands', 'wife', 'wifes', 'spouse', 'spouses', 'parent', 'parents', 'guardian', 'guardians', 'nominee', 'nominees', 'son', 'sons', 'daughter', 'daughters', 'relative', 'relation', 'manager', 'managers', 'supervisor', 'approver', 'reporting', 'referrer', 'introducer', 'witness',
  'पिता', 'पति', 'माता', 'अभिभावक', 'नामिती', 'वडील', 'বাবা', 'পিতা', 'પિતા', 'தந்தை', 'తండ్రి', 'ತಂದೆ', 'ਪਿਤਾ']);

/**
 * Words before an account header that make it another kind of account than one to pay into
 * (a loan, a virtual or demat account, a provident or pension fund, a mandate or a policy).
 */
const OTHER_ACCOUNT_WORDS = new Set(['loan', 'virtual', 'va', 'demat', 'trading', 'pf', 'ppf', 'epf', 'gpf', 'nps', 'pran', 'universal', 'provident', 'esi', 'esic', 'insurance', 'mandate', 'umrn', 'policy', 'folio', 'gst', 'gstin', 'wallet', 'card', 'escrow', 'nostro', 'vostro', 'ledger', 'gl']);

/** The most words a header read by its last words has ("Aadhaar Seeded Savings Bank A/c No" is 7). */
const MAX_HEAD_WORDS = 8;

/**
 * Words that say which of a payee's accounts a header is about ("Primary", "Salary", "SB"), all a
 * name as the bank has it may have in front ("Primary Name As Per Bank"): not a part of a name
 * ("First Name As Per Bank"), a second holder, a branch or someone else.
 */
const ACCOUNT_KIND_WORDS = new Set(['primary', 'main', 'default', 'salary', 'savings', 'saving', 'sb', 'current', 'neft', 'rtgs', 'imps', 'payout', 'payment', 'bank', 'new', 'latest']);

/** Words in front of an account or IFSC header that say it is not the current one. */
const SUPERSEDED_WORDS = new Set(['old', 'previous', 'prev', 'former', 'earlier', 'secondary', 'alternate', 'alternative', 'alt']);

/**
 * An account or IFSC header (or the bank's own name for the holder) behind words the alias table does not know ("SB A/c No", "Savings
 * Bank A/c No", "Current A/c No", "NEFT A/c No", "Aadhaar Seeded Bank A/c No", "Branch IFSC"): the
 * last words say what the column is, the words in front only which one. Plain rank; the payer's
 * when a payer word is among them; weak when they say it is superseded (old, previous,
 * secondary: the new or primary one is paid); none when they make it another kind of account
 * (OTHER_ACCOUNT_WORDS).
 */
function byHead(key: string): HeaderMeaning | undefined {
  const words = key.split(' ');
  // A header of a few words: a qualifier or two and the header; longer text is no header of this kind (nor read word by word).
  if (words.length > MAX_HEAD_WORDS) return undefined;
  for (let cut = 1; cut < words.length; cut += 1) {
    const alias = INDEX.get(words.slice(cut).join(' '));
    // The holder's name as the bank has it, behind a word saying which account ("Primary Name As
    // Per Bank", "Salary Name In Bank"): only the aliases that say so from their first word ("Name
    // As Per …", "Name Of Account Holder"; not "Holder Name", whose front may name another holder:
    // "Joint Holder Name", "Card Holder Name"), and never someone else's ("Father Name As Per Bank").
    const front = words.slice(0, cut);
    const holderName = alias?.role === 'name' && alias.rank === 'record' && words[cut] === 'name' && front.every((w) => ACCOUNT_KIND_WORDS.has(w) || SUPERSEDED_WORDS.has(w));
    if (alias?.role !== 'account' && alias?.role !== 'ifsc' && !holderName) continue;
    if (alias.role === 'account' && front.some((w) => OTHER_ACCOUNT_WORDS.has(w))) return undefined;
    const frontKey = ` ${front.join(' ')} `;
    const payer = PAYER_KEYS.some((q) => frontKey.includes(` ${q} `));
    const superseded = front.some((w) => SUPERSEDED_WORDS.has(w));
    const rank: Rank = payer ? 'payer' : superseded ? 'weak' : holderName ? 'record' : 'plain';
    const why = payer ? "the payer's own" : superseded ? 'not the current one' : 'what it is comes last';
    return { role: alias.role, rank, why: `"${alias.header}" after "${front.join(' ')}" (${why})` };
  }
  return undefined;
}
