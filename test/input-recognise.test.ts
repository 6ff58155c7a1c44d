import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALIASES, headerKey, headerMeaning } from '../src/input/aliases.js';
import { HeaderRecogniser, renameClashes, type SourceRecord } from '../src/input/recognise.js';
import { ColumnError } from '../src/errors.js';

const lines = (...rows: string[][]): SourceRecord[] => rows.map((fields, i) => ({ fields, line: i + 1 }));
const rowsOf = (n: number, make: (i: number) => string[]): string[][] => Array.from({ length: n }, (_, i) => make(i));

test('headerKey: case, punctuation, spacing, camelCase, A/c, #, possessives and spellings fold together', () => {
  const same = (a: string, b: string) => assert.equal(headerKey(a), headerKey(b), `${a} ~ ${b}`);
  same('Beneficiary_Acc_No', 'beneficiary account number');
  same('Bene_A/c No', 'Beneficiary Account Number');
  same('bankAccountNumber', 'Bank Account Number');
  same('bank_account_number', 'BANK  ACCOUNT-NUMBER');
  same('Account #', 'Account No.');
  same("A/c Holder's Name", 'Account Holder Name');
  same('IFS Code', 'IFSC code');
  same('IFC Code', 'ifsc_code');
  same('Beneficiary  Bank IFSC Code', 'Beneficiary Bank IFSC Code');
  same('ＩＦＳＣ', 'IFSC');
});

test('headerMeaning: plain, weak, payee-qualified and payer-qualified headers', () => {
  const m = (h: string) => {
    const meaning = headerMeaning(h);
    return meaning ? `${meaning.role}/${meaning.rank}` : undefined;
  };
  assert.equal(m('Account Number'), 'account/plain');
  assert.equal(m('Fund Account Number'), 'account/payee');
  assert.equal(m('Beneficiary Bank A/c No'), 'account/payee');
  assert.equal(m('Bene_A/c No'), 'account/payee');
  assert.equal(m('Beneficiary_Acc_No'), 'account/payee');
  assert.equal(m('Employee A/C Number'), 'account/payee');
  assert.equal(m('Debit Account No.'), 'account/payer');
  assert.equal(m('Dr_Ac_No'), 'account/payer');
  assert.equal(m('RazorpayX Account Number'), 'account/payer');
  assert.equal(m('Corporate Account Number'), 'account/payer');
  assert.equal(m('IFC Code'), 'ifsc/plain');
  assert.equal(m('Beneficiary Bank IFSC Code'), 'ifsc/payee');
  assert.equal(m('Bene Bank IFSC'), 'ifsc/payee');
  assert.equal(m('Fund Account Ifsc'), 'ifsc/payee');
  assert.equal(m('bank_ifsc'), 'ifsc/plain');
  assert.equal(m('Corporate IFSC Code'), 'ifsc/payer');
  assert.equal(m('branchCode'), 'ifsc/weak');
  assert.equal(m('BANKL'), 'ifsc/weak');
  assert.equal(m('Name of Beneficiary'), 'name/payee');
  assert.equal(m('Fund Account Name'), 'name/payee');
  assert.equal(m('beneficiary_name'), 'name/payee');
  assert.equal(m('Name As Per Bank Records'), 'name/record');
  assert.equal(m('Employee name in bank'), 'name/record');
  assert.equal(m('beneficiaryIFSC'), 'ifsc/payee');
  assert.equal(m('KOINH'), 'name/record');
  // Not the payee's name, nor an account: the bank's name, a code, an id, a type.
  for (const h of ['Beneficiary Bank Name', 'Bene Bank Name', 'Beneficiary Code', 'Fund Account Id', 'Fund Account Type', 'Account Type', 'Contact Name', 'Bank Name', 'MICR Number', 'Amount']) {
    assert.equal(m(h), undefined, h);
  }
});

test('spellings of the alias table that fold to one key agree on role and rank', () => {
  const byKey = new Map<string, string>();
  for (const alias of ALIASES) {
    const key = headerKey(alias.header);
    const meaning = `${alias.role}/${alias.rank}`;
    assert.equal(byKey.get(key) ?? meaning, meaning, alias.header);
    byKey.set(key, meaning);
  }
});

test('recognise: a payee-qualified header beats a bare Account Number, and the reasons say so', () => {
  const records = lines(
    ['Account Number', 'Payout Amount', 'Fund Account Name', 'Fund Account Ifsc', 'Fund Account Number'],
    ...rowsOf(5, (i) => ['7878780080316316', '100', `Payee ${i}`, 'HDFC0000123', `50100${i}12345`]),
  );
  const choice = new HeaderRecogniser().recognise(records);
  assert.deepEqual(choice.columns, { account: 4, ifsc: 3, name: 2, amount: 1 });
  assert.deepEqual(choice.names, { account: 'Fund Account Number', ifsc: 'Fund Account Ifsc', name: 'Fund Account Name' });
  assert.equal(choice.headerLine, 1);
  const reason = choice.reasons.find((r) => r.startsWith('account number'))!;
  assert.match(reason, /"Fund Account Number".*qualified by "fund.*not "Account Number" \(plain, one value on every row\)/);
});

test('recognise: two equal candidates stop with both named and the flag', () => {
  const records = lines(['Account No', 'Bank Account Number', 'IFSC'], ['123456789012', '223456789012', 'SBIN0001234']);
  assert.throws(() => new HeaderRecogniser().recognise(records), (e: Error) =>
    e instanceof ColumnError && /2 columns could be the account number: "Account No" \(column 1\), "Bank Account Number" \(column 2\)/.test(e.message) && /--account-col "Account No"/.test(e.message));
  // Named, it runs.
  const named = new HeaderRecogniser({ overrides: { account: 'Bank Account Number' } }).recognise(records);
  assert.equal(named.columns.account, 1);
  // The same header twice: the flag cannot tell them apart, so say rename.
  assert.throws(() => new HeaderRecogniser().recognise(lines(['IFSC', 'Account No', 'Account No'])), /rename all but one/);
});

test('recognise: title rows above the header are skipped; the header line is 1-based', () => {
  const records = lines(
    ['ACME Industries Pvt Ltd', '', ''],
    ['Vendor payment run for March', '', ''],
    ['NA', 'NA', 'NA'],
    [''],
    ['Vendor Name', 'Vendor A/c No.', 'Vendor IFSC'],
    ['Asha Traders', '123456789012', 'SBIN0001234'],
  );
  const choice = new HeaderRecogniser().recognise(records);
  assert.equal(choice.headerIndex, 4);
  assert.equal(choice.headerLine, 5);
  assert.deepEqual(choice.columns, { account: 1, ifsc: 2, name: 0 });
  assert.match(choice.reasons[0]!, /header found at line 5; the 4 line\(s\) above it are copied/);
  // --header-row forces it.
  const forced = new HeaderRecogniser({ headerRow: 5 }).recognise(records);
  assert.equal(forced.headerIndex, 4);
  assert.throws(() => new HeaderRecogniser({ headerRow: 4 }).recognise(records), /--header-row 4: line 4 is blank/);
});

test('recognise: a title block with no header, and a file with no IFSC column, say what was seen and which flags settle it', () => {
  const titles = lines(['Salary statement'], ['Period: March'], ['Amount', 'Remarks'], ['100', 'ok']);
  assert.throws(() => new HeaderRecogniser().recognise(titles), (e: Error) =>
    /input has no account number column \(use --account-col\) and no IFSC column \(use --ifsc-col\)/.test(e.message) && /--header-row N/.test(e.message));
  const noIfsc = lines(['Beneficiary Name', 'Beneficiary Account Number', 'Amount'], ['A', '123456789012', '5']);
  assert.throws(() => new HeaderRecogniser().recognise(noIfsc), (e: Error) =>
    /no IFSC column \(use --ifsc-col\); headers found: "Beneficiary Name", "Beneficiary Account Number", "Amount"/.test(e.message));
  const payerOnly = lines(['Debit Account No', 'IFSC', 'Name'], ['123456789012', 'SBIN0001234', 'A']);
  assert.throws(() => new HeaderRecogniser().recognise(payerOnly), /"Debit Account No" look\(s\) like the payer's own account/);
});

test('content: an IFSC column of non-IFSCs and a constant account column stop, unless named', () => {
  const branchNumbers = lines(['Account Number', 'Branch Number', 'Name'], ...rowsOf(4, (i) => [`12345678901${i}`, `00${i}12`, 'A']));
  assert.throws(() => new HeaderRecogniser().recognise(branchNumbers), /"Branch Number" was taken as the IFSC column, but 4 of its first 4 value\(s\) are not IFSC-shaped/);
  assert.equal(new HeaderRecogniser({ overrides: { ifsc: 'Branch Number' } }).recognise(branchNumbers).columns.ifsc, 1);

  const debit = lines(['Account Number', 'IFSC', 'Name'], ...rowsOf(5, (i) => ['7878780080316316', 'SBIN0001234', `P${i}`]));
  assert.throws(() => new HeaderRecogniser().recognise(debit), (e: Error) =>
    /holds the same account \(…6316\) on each of the first 5 rows: it looks like the payer's own debit account/.test(e.message) && !e.message.includes('7878780080316316'));
  assert.equal(new HeaderRecogniser({ overrides: { account: 'Account Number' } }).recognise(debit).columns.account, 0);
  // A split name is compared whole: payees who share a first name differ in their surnames.
  const splitDebit = lines(['Account Number', 'IFSC', 'First Name', 'Last Name'], ...rowsOf(5, (i) => ['7878780080316316', 'SBIN0001234', 'Rahul', ['Sharma', 'Verma', 'Gupta', 'Nair', 'Rao'][i]!]));
  assert.throws(() => new HeaderRecogniser().recognise(splitDebit), /holds the same account \(…6316\) on each of the first 5 rows: it looks like the payer's own debit account/);
  assert.doesNotThrow(() => new HeaderRecogniser().recognise(lines(['Account Number', 'IFSC', 'First Name', 'Last Name'], ...rowsOf(5, () => ['123456789012', 'SBIN0000001', 'Rahul', 'Sharma']))));
  // One payee repeated (same IFSC and name) is a run of duplicates, not a debit account.
  assert.doesNotThrow(() => new HeaderRecogniser().recognise(lines(['Account Number', 'IFSC', 'Name'], ...rowsOf(5, () => ['123456789012', 'SBIN0000001', 'Asha']))));
  // Two rows of one payee are a duplicate, not a debit account.
  assert.doesNotThrow(() => new HeaderRecogniser().recognise(lines(['Account Number', 'IFSC'], ['123456789012', 'SBIN0001234'], ['123456789012', 'SBIN0001234'])));
});

test('renameClashes: an output column the input already has becomes vas_<name>', () => {
  const { columns, renamed } = renameClashes(['beneficiary_name', 'bank_account_number', 'Verify_Status', 'vas_bank_name', 'bank_name'], ['verify_status', 'beneficiary_name', 'bank_name', 'bank_city']);
  assert.deepEqual(columns, ['vas_verify_status', 'vas_beneficiary_name', 'vas_vas_bank_name', 'bank_city']);
  assert.deepEqual(renamed, { verify_status: 'vas_verify_status', beneficiary_name: 'vas_beneficiary_name', bank_name: 'vas_vas_bank_name' });
});

test('recognise: the amount column needs a header that names an amount and values that are amounts', () => {
  const amountOf = (header: string[], cell: (i: number) => string): number | undefined =>
    new HeaderRecogniser().recognise(lines(header, ...rowsOf(6, (i) => [`Payee ${i}`, `50100${i}12345`, 'HDFC0000123', cell(i), `${9800000000 + i}`]))).columns.amount ?? -1;
  assert.equal(amountOf(['Name', 'Account Number', 'IFSC', 'Net Pay', 'Mobile'], (i) => `${i},250.50`), 3);
  assert.equal(amountOf(['Name', 'Account Number', 'IFSC', 'राशि', 'Mobile'], (i) => `₹ ${i}00`), 3);
  assert.equal(amountOf(['Name', 'Account Number', 'IFSC', 'Amount (₹)', 'Mobile'], (i) => `Rs. ${i}00/-`), 3);
  // A header word over values that are not amounts, and numbers under a header that is not an amount's.
  assert.equal(amountOf(['Name', 'Account Number', 'IFSC', 'Amount in words', 'Mobile'], (i) => `${i} thousand rupees`), -1);
  assert.equal(amountOf(['Name', 'Account Number', 'IFSC', 'Employee Code', 'Mobile'], (i) => `${1000 + i}`), -1);
});
