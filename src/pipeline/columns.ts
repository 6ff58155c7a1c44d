/**
 * Finding the account, IFSC and name columns among the headers a spreadsheet happens to use.
 * Headers are compared case-, space- and punctuation-insensitively.
 */
import { ColumnError } from '../errors.js';

export interface ColumnOverrides {
  account?: string | undefined;
  ifsc?: string | undefined;
  name?: string | undefined;
}

export interface ColumnMap {
  account: number;
  ifsc: number;
  /** -1 when the file has no name column (name matching is then left out). */
  name: number;
}

export function normaliseHeader(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Known spellings after normaliseHeader, most specific first. */
const ACCOUNT_HEADERS = [
  'accountnumber', 'accountno', 'accountnum', 'accno', 'acno', 'acnumber', 'acctno', 'acctnumber', 'accnumber',
  'bankaccountnumber', 'bankaccountno', 'bankaccount', 'beneficiaryaccountnumber', 'beneficiaryaccountno',
  'beneficiaryaccount', 'beneaccountno', 'benaccountno', 'benaccountnumber', 'payeeaccountnumber', 'payeeaccountno',
  'creditaccountnumber', 'account', 'accountid', 'accountnumbers',
];
const IFSC_HEADERS = [
  'ifsc', 'ifsccode', 'ifscnumber', 'ifscno', 'bankifsc', 'bankifsccode', 'beneficiaryifsc', 'beneficiaryifsccode',
  'beneifsc', 'payeeifsc', 'ifsccodes', 'branchifsc',
];
const NAME_HEADERS = [
  'beneficiaryname', 'payeename', 'accountholdername', 'accountholder', 'accountname', 'holdername', 'name',
  'fullname', 'vendorname', 'employeename', 'suppliername', 'customername', 'benename', 'beneficiary', 'payee',
  'nameasperbank', 'nameinbank',
];


function findColumn(headers: readonly string[], normalised: readonly string[], known: readonly string[], override: string | undefined, what: string, flag: string): number {
  if (override !== undefined) {
    let index = headers.indexOf(override);
    if (index < 0) index = normalised.indexOf(normaliseHeader(override));
    if (index < 0) {
      throw new ColumnError(`${flag} "${override}" is not a column of the input; headers found: ${listHeaders(headers)}`);
    }
    return index;
  }
  for (const candidate of known) {
    const index = normalised.indexOf(candidate);
    if (index >= 0) return index;
  }
  return what === 'name' ? -1 : -2;
}

/** Longest header shown in a message: a damaged file can have a header of megabytes. */
const HEADER_SHOWN_CHARS = 40;

export function listHeaders(headers: readonly string[]): string {
  const shown = headers
    .slice(0, 30)
    .map((h) => JSON.stringify(h.length > HEADER_SHOWN_CHARS ? `${h.slice(0, HEADER_SHOWN_CHARS)}…` : h))
    .join(', ');
  return headers.length > 30 ? `${shown}, … (${headers.length} in all)` : shown || '(none)';
}

export function resolveColumns(headers: readonly string[], overrides: ColumnOverrides = {}): ColumnMap {
  const normalised = headers.map(normaliseHeader);
  const account = findColumn(headers, normalised, ACCOUNT_HEADERS, overrides.account, 'account', '--account-col');
  const ifsc = findColumn(headers, normalised, IFSC_HEADERS, overrides.ifsc, 'ifsc', '--ifsc-col');
  const name = findColumn(headers, normalised, NAME_HEADERS, overrides.name, 'name', '--name-col');
  const missing: string[] = [];
  if (account < 0) missing.push('account number column (use --account-col)');
  if (ifsc < 0) missing.push('IFSC column (use --ifsc-col)');
  if (missing.length > 0) {
    throw new ColumnError(`input has no ${missing.join(' and no ')}; headers found: ${listHeaders(headers)}`);
  }
  // Two columns under one header (a debit and a credit account, say): taking the first
  // silently could verify the wrong account, so ask for the file to be fixed instead.
  for (const [index, flag] of [[account, '--account-col'], [ifsc, '--ifsc-col'], [name, '--name-col']] as const) {
    if (index < 0) continue;
    const twins = normalised.flatMap((n, i) => (n === normalised[index] ? [i + 1] : []));
    if (twins.length > 1) {
      throw new ColumnError(
        `header ${JSON.stringify(headers[index])} names ${twins.length} columns (${twins.join(', ')}): rename all but one so that it is clear which one to use (${flag} cannot tell them apart)`,
      );
    }
  }
  return { account, ifsc, name };
}
