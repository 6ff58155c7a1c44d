/**
 * Test accounts (docs/ARCHITECTURE.md, "The sandbox"): the last two digits of an account number choose an outcome,
 * like a payment provider's test cards. Pure functions; the server keeps the attempt counters.
 */
import { dailyLimitMessage, MESSAGES, type BankResult, type IfscDetails } from '../api/schemas.js';
import { holderNameFor } from './data/names.js';
import { payeeHolder } from './bank-style.js';
import { hashString, pick, randomFor } from './prng.js';
import type { RegistryEntry } from './registry.js';

/** How long an account ending in 96 takes to answer. */
export const SLOW_ACCOUNT_DELAY_MS = 3000;

/** What the server does with a valid bank request, before daily limits and results. */
export type BankPlan =
  | { readonly kind: 'fail'; readonly status: 500 | 503 }
  | { readonly kind: 'error200'; readonly message: string }
  | { readonly kind: 'process'; readonly delayMs: number; readonly dropConnection: boolean };

/**
 * The plan for a request, given how many times (1-based) this op has been asked about this
 * account since the last reset.
 */
export function planBankRequest(accountNumber: string, attempt: number): BankPlan {
  switch (accountNumber.slice(-2)) {
    case '91':
      return { kind: 'error200', message: MESSAGES.invalidAccount };
    case '92':
      return { kind: 'error200', message: dailyLimitMessage(accountNumber) };
    case '93':
      return attempt <= 2 ? { kind: 'fail', status: 503 } : { kind: 'process', delayMs: 0, dropConnection: false };
    case '95':
      return attempt <= 1 ? { kind: 'fail', status: 500 } : { kind: 'process', delayMs: 0, dropConnection: false };
    case '96':
      return { kind: 'process', delayMs: SLOW_ACCOUNT_DELAY_MS, dropConnection: false };
    case '97':
      return { kind: 'process', delayMs: 0, dropConnection: attempt <= 1 };
    default:
      return { kind: 'process', delayMs: 0, dropConnection: false };
  }
}

/** Remarks banks give for a failed verification. */
export const NOT_VERIFIED_REMARKS = [
  'Account closed or does not exist',
  'Account is dormant or inoperative',
  'Account blocked or frozen',
  'Invalid beneficiary account number',
  'Credit to NRE account not permitted',
] as const;

/** A value that a spreadsheet would run as a formula: the output writer must neutralise it. */
export function formulaName(name: string, accountNumber: string): string {
  return hashString(accountNumber) % 2 === 0 ? `=HYPERLINK("http://example.invalid/x","${name}")` : `=1+2 ${name}`;
}

export interface ResultInput {
  readonly accountNumber: string;
  readonly ifscDetails: IfscDetails;
  readonly isPennyDrop: boolean;
  readonly entry: RegistryEntry | undefined;
  readonly seed: number;
  /** The payee file's name for the account (options.ts `payeeNames`), if it gives one. */
  readonly payeeName?: string | undefined;
  /** Days since the epoch in Asia/Kolkata (a changing holder answers by day). */
  readonly istDay?: number | undefined;
}

/** The holder of a VERIFIED account: the registry's, else one derived from the payee file's name, else a generated one. */
function holderFor(input: ResultInput): string {
  if (input.entry !== undefined) return input.entry.name;
  if (input.payeeName !== undefined && input.payeeName.trim() !== '') return payeeHolder(input.payeeName, input.accountNumber, input.seed, input.istDay ?? 0);
  return holderNameFor(input.accountNumber, input.seed);
}

/** The success body for a processed request: registry first, then the payee file's name, then the generated holder. */
export function buildBankResult(input: ResultInput): BankResult {
  const { accountNumber, entry } = input;
  const ending = accountNumber.slice(-2);
  const status = ending === '90' ? 'NOT_VERIFIED' : (entry?.status ?? 'VERIFIED');

  if (status === 'NOT_VERIFIED') {
    const remarks = randomFor(`remark:${accountNumber}`, input.seed);
    return {
      accountNumber,
      beneficiaryName: null,
      verificationStatus: 'NOT_VERIFIED',
      // An account ending in 90 is the documented "closed" case; others vary.
      transactionRemark: ending === '90' ? NOT_VERIFIED_REMARKS[0] : pick(remarks, NOT_VERIFIED_REMARKS),
      isPennyDrop: input.isPennyDrop,
      ifscDetails: input.ifscDetails,
    };
  }

  const holder = holderFor(input);
  return {
    accountNumber,
    beneficiaryName: ending === '94' ? formulaName(holder, accountNumber) : holder,
    verificationStatus: 'VERIFIED',
    transactionRemark: input.isPennyDrop ? 'Transaction Successful' : 'Account is active',
    isPennyDrop: input.isPennyDrop,
    ifscDetails: input.ifscDetails,
  };
}
