/** Issue #29: columns chosen by header and content together, rows that are not payees, the CSV format sniffed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeaderRecogniser, nameColumnsOf, nameIn, type SourceRecord } from '../src/input/recognise.js';
import { notPayeeReason } from '../src/input/row-kind.js';
import { sniffDelimiter } from '../src/input/read-csv.js';
import { headerMeaning } from '../src/input/aliases.js';
import { ColumnError } from '../src/errors.js';
import { ifscRegistry } from '../src/input/ifsc-registry.js';

const lines = (...rows: string[][]): SourceRecord[] => rows.map((fields, i) => ({ fields, line: i + 1 }));
const IFSCS = ['SBIN0000001', 'HDFC0000001', 'ICIC0000002', 'UTIB0000004'];
const rows = (n: number, make: (i: number) => string[]) => Array.from({ length: n }, (_, i) => make(i));

test('the IFSC column is the one holding IFSCs, whatever its header; MICR codes mixed in still count', () => {
  const records = lines(['Ref', 'Credit to', 'Bank code (IFSC or MICR)', 'Holder'], ...rows(4, (i) => [`R${i}`, `50010001001${i}`, i === 2 ? '400240015' : IFSCS[i]!, `Asha ${'ABCD'[i]} Verma`]));
  const choice = new HeaderRecogniser().recognise(records);
  assert.deepEqual(choice.columns, { account: 1, ifsc: 2, name: 3 });
  assert.deepEqual(choice.decidedBy, { account: 'content', ifsc: 'content', name: 'content' });
  assert.match(choice.reasons.find((r) => r.startsWith('IFSC'))!, /by its content: 3 of 4 value\(s\) IFSC-shaped, 1 MICR/);
});

test('two IFSC columns: the varying one is the payees\', the constant one the sponsor bank\'s; a true tie stops naming both', () => {
  const header = ['Sponsor Bank IFSC / MICR / IIN', 'Destination Bank IFSC / MICR / IIN', "Beneficiary's Bank Account number"];
  const choice = new HeaderRecogniser().recognise(lines(header, ...rows(4, (i) => ['ICIC0000104', IFSCS[i]!, `50010001001${i}`])));
  assert.equal(choice.names.ifsc, 'Destination Bank IFSC / MICR / IIN');
  assert.throws(() => new HeaderRecogniser().recognise(lines(header, ['ICIC0000104', 'SBIN0000001', '500100010011'])), (e: Error) =>
    e instanceof ColumnError && /2 columns could be the IFSC: "Sponsor Bank IFSC \/ MICR \/ IIN" \(column 1\), "Destination Bank IFSC \/ MICR \/ IIN" \(column 2\).*--ifsc-col/.test(e.message));
});

test('codes shaped like IFSCs under no bank (employee codes, ACME0001234) are no IFSC column: the bank codes win, even with one branch on every row (staff who all bank at the employer\'s branch)', () => {
  const registry = ifscRegistry();
  for (const prefix of ['ACME', 'EMPL', 'TCSX', 'QWRT']) {
    assert.equal(registry.isBank(prefix), false, `${prefix} must be no bank code for this test`);
    const codes = Array.from({ length: 5 }, (_, i) => `${prefix}00${String(1234 + i * 7).padStart(5, '0')}`);
    for (const [label, header, make] of [
      ['code first', ['Emp Code', 'Employee Name', 'Account No', 'IFSC Code'], (i: number) => [codes[i]!, `Asha ${'ABCDE'[i]} Verma`, `50010001001${i}`, 'HDFC0000123']],
      ['code last, no header alias', ['Name', 'Bank A/c', 'Branch IFSC', 'Staff ID'], (i: number) => [`Asha ${'ABCDE'[i]} Verma`, `50010001001${i}`, 'SBIN0001707', codes[i]!]],
      ['both vary', ['Emp Code', 'Employee Name', 'Account No', 'IFSC'], (i: number) => [codes[i]!, `Asha ${'ABCDE'[i]} Verma`, `50010001001${i}`, IFSCS[i % 4]!]],
    ] as const) {
      const choice = new HeaderRecogniser().recognise(lines([...header], ...rows(5, (i) => [...make(i)])));
      const ifscAt = label === 'code last, no header alias' ? 2 : 3;
      assert.equal(choice.columns.ifsc, ifscAt, `${prefix}, ${label}: ${choice.reasons.join(' | ')}`);
      assert.match(choice.reasons.find((r) => r.startsWith('IFSC'))!, /under no bank that issues IFSCs/, `${prefix}, ${label}`);
    }
  }
  // Codes of real banks on one row each against a column of made-up ones: unchanged, the real ones.
  const mixed = new HeaderRecogniser().recognise(lines(['Payee', 'Acct', 'Code A', 'Code B'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `50010001001${i}`, `ZZZZ000${i}123`, IFSCS[i]!])));
  assert.equal(mixed.columns.ifsc, 3);
});

test('several columns of names that no alias names: someone else\'s (a father, a spouse, a manager) is never the payee\'s; of the rest, the one whose header names a payee (employee, staff, party…); with none, no name is taken and the log says so', () => {
  const names = (i: number, who: string) => `${who} ${'ABCD'[i]} ${['Verma', 'Iyer', 'Khan', 'Rao'][i]}`;
  const choose = (a: string, b: string) => new HeaderRecogniser().recognise(lines([a, b, 'Account Number', 'IFSC'], ...rows(4, (i) => [names(i, 'Mohan'), names(i, 'Asha'), `50010001001${i}`, IFSCS[i]!])));
  for (const [other, payee] of [['Manager Name', 'Employee'], ['Father Name', 'Farmer Name'], ["Father's Name", 'Student'], ['Spouse', 'Pensioner'], ['Parent Name', 'Student Name'], ['Nominee', 'Member'], ['पिता का नाम', 'किसान का नाम']]) {
    const choice = choose(other!, payee!);
    assert.equal(choice.columns.name, 1, `${other} / ${payee}: ${choice.reasons.join(' | ')}`);
  }
  for (const [other, payee] of [['Contact Person', 'Party'], ['Requester', 'Employee'], ['Checked By', 'Staff']]) {
    const choice = choose(other!, payee!);
    assert.equal(choice.columns.name, 1, `${other} / ${payee}: ${choice.reasons.join(' | ')}`);
    assert.match(choice.reasons.find((r) => r.startsWith('payee name'))!, new RegExp(`its header says whose .*not "${other}" \\(names, but its header names no payee\\)`));
  }
  const neither = choose('Requester', 'Contact Person');
  assert.equal(neither.columns.name, -1);
  assert.match(neither.reasons.find((r) => r.startsWith('payee name'))!, /none taken: 2 columns hold names \("Requester" \(column 1\), "Contact Person" \(column 2\)\).*--name-col "Requester"/);
});

test('a header that says "account number" beside a word that only says "a number" (code, ref, id) is still an account column by content; such a word alone, or a phone, is not', () => {
  for (const h of ['Payer Account Number Code', 'Customer Account Number Code', 'Beneficiary Account Number Ref', 'Account Number ID']) {
    const choice = new HeaderRecogniser().recognise(lines(['Name', h, 'IFSC', 'Mobile'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `50010001001${i}`, IFSCS[i]!, `98765432${10 + i}`])));
    assert.equal(choice.columns.account, 1, `${h}: ${choice.reasons.join(' | ')}`);
  }
  for (const h of ['Employee Code', 'Ref No', 'Mobile No']) {
    assert.throws(() => new HeaderRecogniser().recognise(lines(['Name', h, 'IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `50010001001${i}`, IFSCS[i]!]))), ColumnError, h);
  }
});

test('the payees\' account under a payer-sounding header is taken when it varies and no other does; a constant one is the payer\'s', () => {
  const mandate = lines(['UMRN', 'DebitCustomerName', 'DebitAccountNo', 'DebitIFSC', 'CorporateAccount'], ...rows(4, (i) => [`ICIC702181123000000${i}`, `Payee ${'ABCD'[i]}`, `50010001001${i}`, IFSCS[i]!, '7878780080316316']));
  const choice = new HeaderRecogniser().recognise(mandate);
  assert.deepEqual(choice.names, { account: 'DebitAccountNo', ifsc: 'DebitIFSC', name: 'DebitCustomerName' });
  // Phone numbers, UAN and Aadhaar numbers are 9-18 digits and vary, but their headers say what they are.
  const payroll = lines(['Name', 'Mobile', 'UAN_No', 'Bank_AC', 'IFSC_Code'], ...rows(4, (i) => [`Asha ${'ABCD'[i]}`, `987654321${i}`, `10163932484${i}`, `50010001001${i}`, IFSCS[i]!]));
  assert.equal(new HeaderRecogniser().recognise(payroll).names.account, 'Bank_AC');
});

test('the header line is found by content: the line above the first rows of IFSCs and account numbers, instructions in its cells', () => {
  const records = lines(
    ['Fill one row per vendor'],
    ['Payee (as per bank) - required', 'A/C (digits only; typically 9-18)', 'Bank branch code 11 chars'],
    ...rows(3, (i) => [`Vendor ${'ABC'[i]}`, `50010001001${i}`, IFSCS[i]!]),
  );
  const choice = new HeaderRecogniser().recognise(records);
  assert.equal(choice.headerLine, 2);
  assert.deepEqual(choice.columns, { account: 1, ifsc: 2, name: 0 });
  // A header cell that carries instructions is read by its words before the parenthesis.
  assert.equal(headerMeaning("Beneficiary's Account Number (Mandatory) Typically 9-18 digits")?.role, 'account');
});

test('two lines of column names one under the other: the header is the one the payees follow (SAP labels over technical names; a template\'s list of mandatory fields above its header)', () => {
  const sap = new HeaderRecogniser().recognise(lines(
    ['Vendor', 'Bank Country Key', 'Bank Key', 'Bank Account', 'Account Holder'],
    ['LIFNR', 'BANKS', 'BANKL', 'BANKN', 'KOINH'],
    ...rows(3, (i) => [`x${i}`, 'IN', IFSCS[i]!, `50010001001${i}`, `Vendor ${'ABC'[i]}`]),
  ));
  assert.equal(sap.headerLine, 2);
  assert.deepEqual(sap.columns, { account: 3, ifsc: 2, name: 4 });
  const template = new HeaderRecogniser().recognise(lines(
    ['Trace Account', '917020034567', '', 'File Remarks', 'Salary Nov'],
    ['Mandatory:', 'Account Number', 'IFSC', '', ''],
    [''],
    ['Beneficiary Name', 'Beneficiary Account Number', 'IFSC Code', 'Amount', 'Remarks'],
    ...rows(3, (i) => [`Vendor ${'ABC'[i]}`, `50010001001${i}`, IFSCS[i]!, '1000', 'Nov']),
  ));
  assert.equal(template.headerLine, 4, 'not the list of mandatory fields, whose columns hold no IFSCs');
  assert.deepEqual(template.columns, { account: 1, ifsc: 2, name: 0, amount: 3 });
});

test('Indian-language headers: Hindi, Tamil, Bengali…', () => {
  const choice = new HeaderRecogniser().recognise(lines(['लाभार्थी का नाम', 'खाता संख्या', 'आईएफएससी कोड'], ['अजय कुमार', '500100010011', 'SBIN0000001']));
  assert.deepEqual(choice.decidedBy, { account: 'header and content', ifsc: 'header and content', name: 'header and content' });
  assert.equal(headerMeaning('கணக்கு எண்')?.role, 'account');
  assert.equal(headerMeaning('নাম')?.role, 'name');
  // A DBT list: Aadhaar and mobile numbers beside the account are never the account (black-box
  // review: the refusal named the Aadhaar column as the flag to give); खाता सं. is the account.
  const dbt = new HeaderRecogniser().recognise(lines(
    ['क्र.सं.', 'लाभार्थी का नाम', 'आधार संख्या', 'बैंक खाता सं.', 'आईएफएससी', 'मोबाइल नंबर', 'रक्कम'],
    ['1', 'राम प्रसाद', '234567890123', '30012345678', 'SBIN0001234', '9876543210', '500'],
    ['2', 'सीता देवी', '234567890124', '30012345679', 'HDFC0000123', '9876543211', '700'],
  ));
  assert.deepEqual(dbt.columns, { account: 3, ifsc: 4, name: 1, amount: 6 });
  // The sender's account and the beneficiary's: the beneficiary's, qualified in Hindi.
  const both = new HeaderRecogniser().recognise(lines(
    ['प्रेषक खाता संख्या', 'लाभार्थी का नाम', 'लाभार्थी का खाता संख्या', 'आईएफएससी'],
    ['50100200300400', 'राम प्रसाद', '30012345678', 'SBIN0001234'],
    ['50100200300400', 'सीता देवी', '30012345679', 'HDFC0000123'],
  ));
  assert.equal(both.columns.account, 2);
  assert.equal(headerMeaning('प्रेषक खाता संख्या')?.rank, 'payer');
});

test('--explain-columns: one line per column with its scores', () => {
  const choice = new HeaderRecogniser().recognise(lines(['Name', 'Account No', 'IFSC'], ['Asha', '500100010011', 'SBIN0000001']));
  assert.deepEqual(choice.explain, [
    'column 1 "Name": header name (weak); 1 value(s): IFSC 0, MICR 0, 9-18 digits 0, name-like 1, 1 distinct',
    'column 2 "Account No": header account (plain); 1 value(s): IFSC 0, MICR 0, 9-18 digits 1, name-like 0, 1 distinct',
    'column 3 "IFSC": header ifsc (plain); 1 value(s): IFSC 1, MICR 0, 9-18 digits 0, name-like 0, 1 distinct',
  ]);
});

test('rows that are not payees: blank, totals, subtotals, repeated headers, notes; a named payee without an account is a payee row', () => {
  const header = ['Sr', 'Name', 'Account', 'IFSC', 'Amount'];
  const columns = { account: 2, ifsc: 3, name: 1 };
  const kind = (fields: string[]) => notPayeeReason(fields, header, columns);
  assert.equal(kind(['', '', '', '', '']), 'a blank row');
  assert.equal(kind(['TOTAL', '10 employees', '', '', '10000.00']), 'a total row');
  assert.equal(kind(['', '', 'Total:', '', '']), 'a total row');
  assert.equal(kind(['', 'Sub Total', '', '', '5000']), 'a subtotal row');
  assert.equal(kind(['', '', '10000.00', '', '']), undefined, 'a bad account with no label saying total is a payee row (INVALID)');
  assert.equal(kind(['', '', '', '', '10000.00']), 'a total row', 'a control-total row');
  assert.equal(kind([...header]), 'a repeated header line');
  assert.equal(kind(['Prepared by: payroll', '', '', '', '']), 'a note');
  assert.equal(kind(['1', 'Asha Verma', '', '', '500']), undefined, 'a payee with no account is INVALID, not skipped');
  assert.equal(kind(['1', 'Asha Verma', '500100010011', 'SBIN0000001', '500']), undefined);
  // Labels under the account or IFSC header are no account or IFSC (black-box review: each was an
  // INVALID payee on HOLD, and --fail-on hold mailed them every night).
  assert.equal(kind(['', '', '', 'Total', '3000']), 'a total row', 'the label under the IFSC header');
  assert.equal(kind(['Checked by', '', 'Approved by', '', '']), 'a note', 'signatures under the account header');
  assert.equal(kind(['', 'Net Payable', '', '', '3000']), 'a total row');
  assert.equal(kind(['Hash Total', '', '46446248345', '', '']), 'a total row', 'a hash total of the account numbers, no name, no IFSC');
  assert.equal(kind(['', '', 'Authorised Signatory', '', '']), 'a note');
  // The label in the name column beside the hash (it was a payee on HOLD, "IFSC is empty").
  for (const label of ['Hash Total', 'HASH TOTAL:', 'Control Total', 'Total', 'Grand Total', 'Batch Total', 'Total Amount', 'कुल योग']) {
    assert.equal(kind(['', label, '46446248345', '', '']), 'a total row', label);
    assert.equal(kind(['', label, '46446248345', '', '93000']), 'a total row', `${label}, with the amounts' sum`);
  }
  // A name that only begins like one, or any IFSC on the row: a payee's (INVALID where it must be).
  for (const name of ['Total Solutions', 'Totaram Yadav', 'Hash Totalling Traders', 'कुलदीप सिंह', 'योग', 'कुल']) assert.equal(kind(['', name, '46446248345', '', '']), undefined, name);
  // A total's words in another cell of a payee's row (a remark) do not make it a total.
  assert.equal(notPayeeReason(['1', 'Asha Verma', '5001000', '', 'batch total pending'], header, columns), undefined, 'a remark');
  assert.equal(kind(['', 'Hash Total', '46446248345', 'SBIN0000001', '']), undefined, 'an IFSC makes it a payee row');
  // Still payees: a name, or digits where the account or IFSC is.
  assert.equal(kind(['1', 'Asha Verma', 'N/A', '', '500']), undefined, 'a named payee with no account number');
  assert.equal(kind(['', '', '5001000100', 'HDFCBANK', '']), undefined, 'an account, an IFSC mistyped');
  assert.equal(kind(['', 'Total Solutions Pvt Ltd', '500100010011', 'SBIN0000001', '500']), undefined, 'a firm named Total');
  // A firm whose name holds a total's words, or a colon, is a payee without its account: INVALID
  // (black-box review: each was SKIPPED, and the release copied it into the payout file).
  const withAmount = (fields: string[]) => notPayeeReason(fields, header, { ...columns, amount: 4 });
  assert.equal(withAmount(['', 'Amount Payable Ltd', '', '', '20']), undefined);
  assert.equal(withAmount(['', 'Total Solutions', '', '', '20']), undefined);
  assert.equal(withAmount(['', 'Net Amount Traders', '', '', '20']), undefined);
  assert.equal(withAmount(['', 'Kumar Enterprises - Attn: Ravi', '', '', '700']), undefined);
  assert.equal(withAmount(['', 'Net Amount Payable', '', '', '3000']), 'a total row');
  assert.equal(withAmount(['', 'Grand Total (12 employees)', '', '', '3000']), 'a total row');
  assert.equal(withAmount(['TOTAL', '10 employees', '', '', '10000.00']), 'a total row');
  assert.equal(withAmount(['', 'Prepared by: payroll', '', '', '']), 'a note');
  // Totals labelled in words a firm does not have stay totals (review: they became INVALID payees).
  for (const label of ['Total Amount Paid', 'Total Salary Payable for March 2024', 'Grand Total (A+B)', 'Total Disbursement', 'TOTAL AMOUNT TO BE TRANSFERRED', 'Net Amount Transferred', 'Total (in Rupees)']) {
    assert.equal(withAmount(['', label, '', '', '22120']), 'a total row', label);
  }
});

test('total rows in the Indian languages (कुल योग, মোট, மொத்தம்…) are total rows; names that start with the same letters are payees', () => {
  const header = ['क्रम सं.', 'नाम', 'खाता संख्या', 'आईएफएससी कोड', 'राशि'];
  const columns = { account: 2, ifsc: 3, name: 1, amount: 4 };
  const kind = (name: string) => notPayeeReason(['', name, '', '', '6000'], header, columns);
  for (const total of ['कुल योग', 'कुल', 'कुल:', 'कुल राशि', 'कुल 3 कर्मचारी', 'महायोग', 'एकूण', 'કુલ', 'মোট', 'সর্বমোট', 'மொத்தம்', 'மொத்தம் தொகை', 'మొత్తం', 'ಒಟ್ಟು', 'ആകെ', 'ਕੁੱਲ', 'ମୋଟ']) {
    assert.equal(kind(total), 'a total row', total);
  }
  assert.equal(kind('उप योग'), 'a subtotal row');
  for (const name of ['कुलदीप सिंह', 'योगेश कुमार', 'योग राज', 'कुल भूषण', 'মোটা রহিম']) assert.equal(kind(name), undefined, `${name} is a payee (INVALID without an account)`);
});

test('a sign-off footer across every column (Prepared by … Authorised Signatory) is a note, under the account and IFSC headers too; a lone name or a cell with digits is not', () => {
  const header = ['Sl', 'Name', 'Account No', 'IFSC', 'Amount'];
  const columns = { account: 2, ifsc: 3, name: 1, amount: 4 };
  assert.equal(notPayeeReason(['Prepared by', 'Checked by', 'Verified by', 'Approved by', 'Authorised Signatory'], header, columns), 'a note');
  assert.equal(notPayeeReason(['', 'Maker', 'Checker', 'Approver', ''], header, columns), 'a note');
  assert.equal(notPayeeReason(['', 'Manager Singh', '', '', ''], header, columns), undefined, 'a name alone is a payee without an account');
  assert.equal(notPayeeReason(['1', 'Manager Singh', 'Checked', 'SBIN0000001', '500'], header, columns), undefined, 'digits: a payee row, INVALID');
  assert.equal(notPayeeReason(['', 'Director Foods', '500100000048', 'SBIN0000001', ''], header, columns), undefined);
});

test('sniffDelimiter: comma, semicolon, tab, pipe; quoted delimiters do not count', () => {
  assert.equal(sniffDelimiter('Name;Account Number;IFSC\nA;1;S\nB;2;T\n'), ';');
  assert.equal(sniffDelimiter('Name\tAccount\tIFSC\nA\t1\tS\n'), '\t');
  assert.equal(sniffDelimiter('Name|Account|IFSC\nA|1|S\nB|2|T\n'), '|');
  assert.equal(sniffDelimiter('Name,Amount\n"Verma; Asha",1\n"Iyer; M",2\n'), ',');
  assert.equal(sniffDelimiter('just one column\nand another\n'), ',');
});

test('account and IFSC in one cell: split when every value of the column holds both', async () => {
  const { payeeCells } = await import('../src/input/recognise.js');
  const choice = new HeaderRecogniser().recognise(lines(['Vendor', 'Bank details'], ['Asha Verma', '500100010011 / SBIN0000001'], ['Ravi Kumar', 'HDFC0000001-500100010048']));
  assert.equal(choice.columns.account, 1);
  assert.equal(choice.columns.ifsc, 1);
  assert.match(choice.reasons.join('\n'), /account number and IFSC: column 2 "Bank details", both in one cell on each of the first 2 row\(s\): split/);
  assert.deepEqual(payeeCells(['Asha Verma', '500100010011 / SBIN0000001'], choice.columns), { account: '500100010011', ifsc: 'SBIN0000001' });
  assert.deepEqual(payeeCells(['Ravi', 'HDFC0000001-500100010048'], choice.columns), { account: '500100010048', ifsc: 'HDFC0000001' });
  assert.deepEqual(payeeCells(['Meena', '500100010085'], choice.columns), { account: '500100010085', ifsc: '' }, 'a cell that does not split is INVALID for its missing IFSC');
});

test('no account column under a header with IFSCs below it: the message names --account-col and no longer sends the user to look below line 20 (--header-row); a file with no header in sight still gets that hint', () => {
  const under = () => new HeaderRecogniser().recognise(lines(['S.No', 'Payer Ref Code', 'Payer IFSC', 'Payer Name'], ...rows(3, (i) => [`${i + 1}`, `1234${i}`, IFSCS[i]!, `Asha ${'ABC'[i]} Verma`])));
  assert.throws(under, (e: Error) => e instanceof ColumnError && /no account number column \(use --account-col\)/.test(e.message) && !/--header-row/.test(e.message));
  assert.throws(() => new HeaderRecogniser().recognise(lines(['Report'], ['foo', 'bar'])), (e: Error) => e instanceof ColumnError && /header below line 20\? give --header-row N/.test(e.message));
});

test('an account header behind words the alias table does not know is still the account (SB, Savings, Current, NEFT, Aadhaar-seeded, Salary, misspelt), beside staff, mobile, PRAN or roll numbers; a loan or virtual account is not', () => {
  const accounts = rows(4, (i) => [`3001234567${i}`]).map((r) => r[0]!);
  for (const h of ['SB A/c No', 'Saving A/c No', 'Savings Bank A/c No', 'Current A/c No', 'CA/SB A/c No', 'NEFT A/c No', 'Aadhaar Seeded Bank A/c No', 'Salary A/c', 'Salary Bank A/c', 'Acount No', 'Bank Acount No', 'Benf. A/c No', 'बचत खाता संख्या']) {
    for (const other of ['Staff No', 'Mob', 'PRAN', 'Roll No']) {
      const choice = new HeaderRecogniser().recognise(lines([other, 'Employee Name', h, 'IFSC', 'Net Pay'], ...rows(4, (i) => [`10002345${60 + i}`, `Asha ${'ABCD'[i]} Verma`, accounts[i]!, IFSCS[i]!, `4${i}200`])));
      assert.equal(choice.columns.account, 2, `${h} beside ${other}: ${choice.reasons.join(' | ')}`);
      assert.equal(choice.columns.amount, 4, `${h}: the amount is Net Pay`);
    }
  }
  for (const h of ['Loan Account Number', 'Virtual Account Number']) {
    assert.throws(() => new HeaderRecogniser().recognise(lines(['Name', h, 'IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, accounts[i]!, IFSCS[i]!]))), ColumnError, h);
  }
});

test('"Salary A/c" is never the amount column, nor is any column of 9-18-digit whole numbers under an amount header', () => {
  const choice = new HeaderRecogniser().recognise(lines(['Staff No', 'Name', 'Dept', 'Salary A/c', 'IFSC Code', 'Net Pay'], ...rows(4, (i) => [`10002345${60 + i}`, `Asha ${'ABCD'[i]} Verma`, 'Finance', `3001234567${i}`, IFSCS[i]!, `4520${i}`])));
  assert.deepEqual([choice.columns.account, choice.columns.amount], [3, 5]);
  const numbers = new HeaderRecogniser().recognise(lines(['Name', 'Account No', 'IFSC', 'Salary'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, IFSCS[i]!, `3001234567${i}`])));
  assert.equal(numbers.columns.amount, undefined);
});

test('an account column a spreadsheet damaged (5.01002E+13, on some rows or all) is still the account column beside staff or mobile numbers that kept their digits', () => {
  for (const damaged of [1, 2, 4]) {
    for (const other of ['Staff No', 'Mob']) {
      const cells = ['5.01002E+13', '3.0012E+10', '3.40157E+09', '9.17010E+14'].map((d, i) => (i < damaged ? d : `3001234567${i}`));
      const choice = new HeaderRecogniser().recognise(lines([other, 'Employee Name', 'Account No', 'IFSC'], ...rows(4, (i) => [`98765432${10 + i}`, `Asha ${'ABCD'[i]} Verma`, cells[i]!, IFSCS[i]!])));
      assert.equal(choice.columns.account, 2, `${damaged} damaged, beside ${other}: ${choice.reasons.join(' | ')}`);
    }
  }
});

test('two columns with the same values on every row (one account under two headers, the same header twice) are no tie: the first is taken, and said; old/new and primary/secondary take the new and the primary', () => {
  for (const header of [['Emp Name', 'Account No', 'Bank A/c No', 'IFSC'], ['Emp Name', 'Account No', 'Account No', 'IFSC']]) {
    const choice = new HeaderRecogniser().recognise(lines(header, ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, `3001234567${i}`, IFSCS[i]!])));
    assert.equal(choice.columns.account, 1);
    assert.match(choice.reasons.find((r) => r.startsWith('account number'))!, /the same values as column 2/);
  }
  const ifscs = new HeaderRecogniser().recognise(lines(['Emp Name', 'A/c No', 'Branch IFSC', 'Bank IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, IFSCS[i]!, IFSCS[i]!])));
  assert.equal(ifscs.columns.ifsc, 2);
  const moved = new HeaderRecogniser().recognise(lines(['Emp Name', 'Old A/c No', 'New A/c No', 'Old IFSC', 'New IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, `5001234567${i}`, IFSCS[i]!, IFSCS[(i + 1) % 4]!])));
  assert.deepEqual([moved.columns.account, moved.columns.ifsc], [2, 4]);
  const primary = new HeaderRecogniser().recognise(lines(['Name', 'Secondary A/c No', 'Secondary IFSC', 'Primary A/c No', 'Primary IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, IFSCS[i]!, `5001234567${i}`, IFSCS[(i + 1) % 4]!])));
  assert.deepEqual([primary.columns.account, primary.columns.ifsc], [3, 4]);
});

test('the bank\'s own name for the holder in other spellings is the payee name: Name as per Bank A/c, Bank A/c Holder Name, Name of (the) Account Holder', () => {
  for (const h of ['Name as per Bank A/c', 'Bank A/c Holder Name', 'Name of Account Holder', 'Name of the Account Holder']) {
    const choice = new HeaderRecogniser().recognise(lines(['Employee Name', 'Vendor Name', h, 'Account No', 'IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `Mohan ${'ABCD'[i]} Lal`, `ASHA ${'ABCD'[i]} VERMA`, `3001234567${i}`, IFSCS[i]!])));
    assert.equal(choice.columns.name, 2, `${h}: ${choice.reasons.join(' | ')}`);
  }
});

test('a header naming a number of something that is no account (Staff No, Roll No, PPO Number, Card ID, Tel, Mob, PRAN) is never the account by content; a true tie names every column\'s flag', () => {
  for (const h of ['Staff No', 'Roll No', 'PPO Number', 'Card ID', 'Tel', 'Mob', 'PRAN', 'Registration No', 'Consumer No']) {
    assert.throws(() => new HeaderRecogniser().recognise(lines(['Name', h, 'IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, IFSCS[i]!]))),
      (e: Error) => e instanceof ColumnError && /no account number column \(use --account-col\)/.test(e.message), h);
  }
  assert.throws(() => new HeaderRecogniser().recognise(lines(['Name', 'Credit to', 'Pay into', 'IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, `5001234567${i}`, IFSCS[i]!]))),
    (e: Error) => e instanceof ColumnError && /Name the right one: --account-col "Credit to" or --account-col "Pay into"$/.test(e.message));
});

test('the savings-bank and passbook names of the account (SB No, SB Account, Passbook No, Bank Passbook No) are account headers; a sponsor bank\'s IFSC is the payer side\'s, even on a one-row file', () => {
  for (const h of ['SB No', 'SB Account', 'Passbook No', 'Bank Passbook No']) {
    const choice = new HeaderRecogniser().recognise(lines(['Staff No', 'Employee Name', h, 'IFSC'], ...rows(4, (i) => [`10002345${60 + i}`, `Asha ${'ABCD'[i]} Verma`, `3001234567${i}`, IFSCS[i]!])));
    assert.equal(choice.columns.account, 2, h);
  }
  const one = new HeaderRecogniser().recognise(lines(['Sponsor Bank IFSC', 'Emp Name', 'A/c No', 'IFSC'], ['HDFC0000060', 'Asha Verma', '30012345678', 'SBIN0001707']));
  assert.equal(one.columns.ifsc, 3);
});

test('a file with no column of names says so in the log: names are not compared (it said nothing)', () => {
  const choice = new HeaderRecogniser().recognise(lines(['Emp Code', 'Account No', 'IFSC', 'Amount'], ...rows(3, (i) => [`E${i}`, `3001234567${i}`, IFSCS[i]!, '100'])));
  assert.equal(choice.columns.name, -1);
  assert.ok(choice.reasons.includes('payee name: none: no column holds payee names; names are not compared (name one with --name-col)'), choice.reasons.join(' | '));
});

test('a payee name split over columns (First, Middle and Last Name; Forename and Surname) is their cells joined in that order, whatever order the columns come in; someone else\'s parts never join', () => {
  const given = ['Asha', 'Ravi', 'Mohd', 'Lakshmi'];
  const middle = ['Devi', '', 'Irfan', ''];
  const surnames = ['Verma', 'Iyer', 'Shaikh', 'Rao'];
  for (const parts of [
    ['First Name', 'Middle Name', 'Last Name'], ['Forename', 'Surname'], ['First_Name', 'Last_Name'], ['firstName', 'lastName'],
    ['Employee First Name', 'Employee Middle Name', 'Employee Last Name'], ['given_name', 'family_name'], ['Surname', 'First Name'],
    ['पहला नाम', 'अंतिम नाम'], ['First Name As Per Bank', 'Last Name As Per Bank'],
  ]) {
    const cellOf = (h: string, i: number) => (/sur|last|family|lname|अंतिम/i.test(h) ? surnames[i]! : /middle|mname/i.test(h) ? middle[i]! : given[i]!);
    const header = ['Emp Code', ...parts, 'Account No', 'IFSC'];
    const choice = new HeaderRecogniser().recognise(lines(header, ...rows(4, (i) => [`E${i}`, ...parts.map((h) => cellOf(h, i)), `3001234567${i}`, IFSCS[i]!])));
    const order = (h: string) => (/sur|last|family|lname|अंतिम/i.test(h) ? 2 : /middle|mname/i.test(h) ? 1 : 0);
    const expected = parts.map((h, k) => ({ h, at: k + 1 })).sort((a, b) => order(a.h) - order(b.h)).map((p) => p.at);
    assert.deepEqual(choice.columns.nameParts, expected, `${parts.join(' / ')}: ${choice.reasons.join(' | ')}`);
    assert.equal(choice.columns.name, expected[0]);
    assert.deepEqual(choice.names.nameParts, expected.map((at) => header[at]));
    assert.match(choice.reasons.find((r) => r.startsWith('payee name'))!, /joined in that order \(a name split into given name/);
    const row = [`E1`, ...parts.map((h) => cellOf(h, 1)), '30012345671', IFSCS[1]!];
    // A part a row lacks (Ravi has no middle name) leaves no double space.
    assert.equal(nameIn(row, nameColumnsOf(choice.columns)), 'Ravi Iyer');
  }
  // A father's or a nominee's parts are someone else's: the payee's own still join.
  const kin = new HeaderRecogniser().recognise(lines(['First Name', 'Last Name', "Father's First Name", 'Nominee Last Name', 'A/c No', 'IFSC'], ...rows(4, (i) => [given[i]!, surnames[i]!, 'Mohan', 'Lal', `3001234567${i}`, IFSCS[i]!])));
  assert.deepEqual(kin.columns.nameParts, [0, 1]);
  // Two given-name columns: which is the payee's is not known; no join (the log says none was taken).
  const two = new HeaderRecogniser().recognise(lines(['First Name', 'Given Name', 'Last Name', 'A/c No', 'IFSC'], ...rows(4, (i) => [given[i]!, given[(i + 1) % 4]!, surnames[i]!, `3001234567${i}`, IFSCS[i]!])));
  assert.equal(two.columns.nameParts, undefined);
  // A preferred (display, nick) name is no part of the name the bank holds: the legal parts join.
  const preferred = new HeaderRecogniser().recognise(lines(['First Name', 'Preferred First Name', 'Last Name', 'A/c No', 'IFSC'], ...rows(4, (i) => [given[i]!, given[(i + 1) % 4]!, surnames[i]!, `3001234567${i}`, IFSCS[i]!])));
  assert.deepEqual(preferred.columns.nameParts, [0, 2]);
  // A name in one column beside its parts: the one column, named by its alias, as before.
  const whole = new HeaderRecogniser().recognise(lines(['Beneficiary Name', 'First Name', 'Last Name', 'A/c No', 'IFSC'], ...rows(4, (i) => [`${given[i]} ${surnames[i]}`, given[i]!, surnames[i]!, `3001234567${i}`, IFSCS[i]!])));
  assert.deepEqual([whole.columns.name, whole.columns.nameParts], [0, undefined]);
  // A given name alone (no surname column) is the name column, as before.
  const alone = new HeaderRecogniser().recognise(lines(['First Name', 'A/c No', 'IFSC'], ...rows(4, (i) => [given[i]!, `3001234567${i}`, IFSCS[i]!])));
  assert.deepEqual([alone.columns.name, alone.columns.nameParts], [0, undefined]);
  // Someone the payee lists beside themself (a contact, an emergency contact, a co-applicant), or
  // parts of two people (their front words differ): no join. Nor F Name / M Name (the father's
  // and the mother's name in Indian school and scheme sheets).
  const parts2 = (a: string, b: string, extra: string[] = []) => new HeaderRecogniser().recognise(lines([...extra.map((h) => h), a, b, 'A/c No', 'IFSC'], ...rows(4, (i) => [...extra.map(() => `Mohan ${'ABCD'[i]} Lal`), given[i]!, surnames[i]!, `3001234567${i}`, IFSCS[i]!])));
  for (const [a, b] of [['Contact First Name', 'Contact Last Name'], ['Emergency Contact First Name', 'Emergency Contact Last Name'], ['Co-Applicant First Name', 'Co-Applicant Last Name'], ['Employee First Name', 'Last Name'], ['F Name', 'Surname'], ['FName', 'LName']]) {
    assert.equal(parts2(a!, b!).columns.nameParts, undefined, `${a} + ${b}`);
  }
  // A column of whole names whose header names the payee beats the parts (they are someone else's, or the same person).
  for (const whole of ['Employee', 'Name of the Staff', 'Student']) {
    const choice = parts2('First Name', 'Last Name', [whole]);
    assert.deepEqual([choice.columns.name, choice.columns.nameParts], [0, undefined], `${whole}: ${choice.reasons.join(' | ')}`);
  }
  // Named by --name-col: that one column.
  const named = new HeaderRecogniser({ overrides: { name: 'Last Name' } }).recognise(lines(['First Name', 'Last Name', 'A/c No', 'IFSC'], ...rows(4, (i) => [given[i]!, surnames[i]!, `3001234567${i}`, IFSCS[i]!])));
  assert.deepEqual([named.columns.name, named.columns.nameParts], [1, undefined]);
});

test('a vendor list\'s payee under a payer\'s word (Company Name, Client Name) is taken when its names differ row by row and no other column holds names but a contact\'s; the payer\'s own (one name on every row) never is', () => {
  const firms = ['Thakkar Electricals LLP', 'Fernandes Automobiles', 'Sai Traders', 'Kaveri Agencies', 'Om Sai Enterprises', 'Bharat Steel Works', 'Ganesh Caterers', 'Lakshmi Textiles', 'Noor Transport Co', 'Patel Hardware', 'Quality Printers', 'Ravi Electricals'];
  for (const h of ['Company Name', 'Client Name', 'Name of Company']) {
    for (const contact of [[], ['Contact Person'], ['Attn Name']]) {
      const header = ['Vendor Code', h, ...contact, 'Account Number', 'IFSC Code'];
      const choice = new HeaderRecogniser().recognise(lines(header, ...rows(12, (i) => [`V${i}`, firms[i]!, ...contact.map(() => `Ramesh ${'ABCDEFGHIJKL'[i]} Rao`), `300123456${10 + i}`, IFSCS[i % 4]!])));
      assert.equal(choice.columns.name, 1, `${h} + ${contact.join()}: ${choice.reasons.join(' | ')}`);
      assert.match(choice.reasons.find((r) => r.startsWith('payee name'))!, /its names differ from row to row/);
    }
    // The employer's name on every row of a salary file: the payer's, never the payee's.
    const payroll = new HeaderRecogniser().recognise(lines([h, 'Emp Code', 'Account Number', 'IFSC Code'], ...rows(5, (i) => ['Acme Pvt Ltd', `E${i}`, `3001234567${i}`, IFSCS[i % 4]!])));
    assert.equal(payroll.columns.name, -1, h);
    // A few rows of as many group companies say nothing: not taken (names not compared, and said).
    const tiny = new HeaderRecogniser().recognise(lines([h, 'Emp Code', 'Account Number', 'IFSC Code'], ...rows(4, (i) => [firms[i]!, `E${i}`, `3001234567${i}`, IFSCS[i % 4]!])));
    assert.equal(tiny.columns.name, -1, `${h}, 4 rows`);
    // Two group companies over the rows: still the payer's.
    const group = new HeaderRecogniser().recognise(lines([h, 'Emp Code', 'Account Number', 'IFSC Code'], ...rows(10, (i) => [i % 2 === 0 ? 'Acme Pvt Ltd' : 'Acme Services LLP', `E${i}`, `3001234567${i}`, IFSCS[i % 4]!])));
    assert.equal(group.columns.name, -1, `${h}, two companies`);
    // A column of payees' names beside it (a party the client pays): the party's.
    const bureau = new HeaderRecogniser().recognise(lines([h, 'Party', 'Account Number', 'IFSC Code'], ...rows(12, (i) => [firms[i]!, `Ramesh ${'ABCDEFGHIJKL'[i]} Rao`, `300123456${10 + i}`, IFSCS[i % 4]!])));
    assert.equal(bureau.columns.name, 1, `${h} beside Party: ${bureau.reasons.join(' | ')}`);
  }
});

test('a provident-fund, ESI or insurance number under an account header (Universal Account Number, the EPFO UAN; PF, ESIC) is no bank account: beside the bank account it loses, alone it is not taken by content; the primary bank account and the name as the bank has it win', () => {
  for (const other of ['Universal Account Number', 'Provident Fund Account No', 'ESIC Account No', 'Insurance Account No']) {
    const beside = new HeaderRecogniser().recognise(lines(['Employee Name', 'Primary Account No', 'Primary IFSC Code', other], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `5001234567${i}`, IFSCS[i]!, `10012345678${i}`])));
    assert.equal(beside.columns.account, 1, `${other}: ${beside.reasons.join(' | ')}`);
    assert.throws(() => new HeaderRecogniser().recognise(lines(['Employee Name', other, 'IFSC'], ...rows(4, (i) => [`Asha ${'ABCD'[i]} Verma`, `10012345678${i}`, IFSCS[i]!]))),
      (e: Error) => e instanceof ColumnError && /no account number column/.test(e.message), other);
  }
  // The bank's own name for the holder behind a word saying which account beats a split name.
  for (const h of ['Primary NameAsPerBank', 'Primary Name As Per Bank', 'Salary Name In Bank']) {
    const choice = new HeaderRecogniser().recognise(lines(['First Name', 'Last Name', h, 'Primary Bank A/c No', 'Primary IFSC'], ...rows(4, (i) => [`Asha`, ['Verma', 'Iyer', 'Khan', 'Rao'][i]!, `ASHA ${['VERMA', 'IYER', 'KHAN', 'RAO'][i]}`, `5001234567${i}`, IFSCS[i]!])));
    assert.deepEqual([choice.columns.name, choice.columns.nameParts], [2, undefined], `${h}: ${choice.reasons.join(' | ')}`);
  }
  // Someone else's, or a joint holder's: never the payee's by these words.
  for (const h of ['Father Name As Per Bank', 'Joint Name As Per Bank', 'Joint Holder Name', 'Card Holder Name']) assert.notEqual(headerMeaning(h)?.rank, 'record', h);
  // Only words saying which account may stand in front: not a second holder's, a branch's or a part of a name.
  for (const h of ['Second Holder Name As Per Bank', 'Co Holder Name As Per Bank', 'Branch Name As Per Bank', 'First Name As Per Bank', 'Guarantor Name As Per Bank']) assert.notEqual(headerMeaning(h)?.rank, 'record', h);
});
