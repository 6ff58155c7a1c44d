/** What differs from the previous check of the same account+IFSC — a changed holder is a fraud signal. */
import type { ResultRecord } from './types.js';

export type PreviousResult = Pick<ResultRecord, 'status' | 'beneficiaryName' | 'verifiedAt'> & { changedSince?: string | null | undefined };

/** The earlier answers a new one is measured against. */
export interface EarlierAnswers {
  /** The newest earlier final answer (VERIFIED or NOT_VERIFIED): its status. */
  newest: PreviousResult | undefined;
  /** The newest earlier one that named a holder: its holder (the same answer when the newest named one). */
  named: PreviousResult | undefined;
}

/** Whether an answer names a holder. */
export function hasHolder(answer: Pick<ResultRecord, 'beneficiaryName'>): boolean {
  return (answer.beneficiaryName ?? '').trim() !== '';
}

const HOLDER_CHANGE = 'beneficiary name "';

/**
 * `changed_since`: the date of the earlier check and what changed, or null when nothing did.
 * - The status is compared with the newest earlier answer.
 * - The holder with the newest earlier answer that named one: an answer without a name (a
 *   NOT_VERIFIED) in between hides no change.
 * - A holder change stays until a person settles it: an answer naming the same new holder as an
 *   earlier one that changed carries that change on (with its date), so the next night does not
 *   pay what the last night held. A reviewer's acceptance of the holder outranks it (decide()).
 */
export function describeChange(earlier: EarlierAnswers, current: Pick<ResultRecord, 'status' | 'beneficiaryName'>): string | null {
  const { newest, named } = earlier;
  if (current.status !== 'VERIFIED' && current.status !== 'NOT_VERIFIED') return null;
  const changes: string[] = [];
  let since: number | string | undefined;
  if (newest && newest.status !== current.status) {
    changes.push(`status ${newest.status} -> ${current.status}`);
    since = newest.verifiedAt;
  }
  const after = (current.beneficiaryName ?? '').trim();
  if (named && after !== '') {
    const before = (named.beneficiaryName ?? '').trim();
    if (before.toUpperCase() !== after.toUpperCase()) {
      changes.push(`${HOLDER_CHANGE}${before}" -> "${after}"`);
      since = named.verifiedAt;
    } else if (holderChangedIn(named.changedSince)) {
      // Still the new holder of an unsettled change: the change, as first recorded.
      const text = named.changedSince!;
      changes.push(text.slice(text.indexOf(HOLDER_CHANGE)));
      since = text.slice(0, 10);
    }
  }
  if (changes.length === 0 || since === undefined) return null;
  const date = typeof since === 'string' ? since : new Date(since).toISOString().slice(0, 10);
  return `${date}: ${changes.join('; ')}`;
}

/** Ends the `changed_since` of an answer that a newer one in the state contradicts. */
export const NEWER_ANSWER = '(a newer answer than';

/**
 * Whether a `changed_since` says the holder's name changed (a status change alone is not a new
 * holder), or that a newer answer contradicts the one the row is decided on.
 */
export function holderChangedIn(changedSince: string | null | undefined): boolean {
  return changedSince !== null && changedSince !== undefined && (changedSince.includes(HOLDER_CHANGE) || changedSince.includes(NEWER_ANSWER));
}

/** The newest answer the state holds for a payee (any run, any file). */
export interface NewestAnswer {
  id: number;
  mode: string;
  status: string;
  beneficiaryName: string | null;
  verifiedAt: number;
}

/**
 * What a newer answer for the payee says against `own`, the answer a row is decided on (a
 * remembered penny-drop, a reused answer, last week's run at its release), or null when there is
 * no newer one or it says the same:
 * - another holder, in either mode (a name is the bank's, however it was asked);
 * - the bank calling the account invalid;
 * - another status from a call at least as strong: a penny-less NOT_VERIFIED says nothing against a
 *   penny-drop's VERIFIED (many banks answer penny-less so; hybrid sends those to penny-drop).
 */
export function contradiction(own: PreviousResult & { id: number; mode: string }, newest: NewestAnswer | undefined): string | null {
  if (!newest || newest.id === own.id || newest.verifiedAt < own.verifiedAt) return null;
  const since = new Date(own.verifiedAt).toISOString().slice(0, 10);
  if (newest.status === 'INVALID') return own.status === 'INVALID' ? null : `${since}: status ${own.status} -> INVALID`;
  const weaker = newest.mode !== 'pd' && own.mode === 'pd';
  const statusOwn = weaker ? { ...own, status: newest.status as ResultRecord['status'] } : own;
  // Only what the newer answer says differently: a change `own` itself carries holds its row anyway.
  return describeChange({ newest: statusOwn, named: { ...own, changedSince: null } }, { status: newest.status as ResultRecord['status'], beneficiaryName: newest.beneficiaryName });
}
