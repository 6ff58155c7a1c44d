/** What differs from the previous check of the same account+IFSC — a changed holder is a fraud signal. */
import type { ResultRecord } from './types.js';

export type PreviousResult = Pick<ResultRecord, 'status' | 'beneficiaryName' | 'verifiedAt'>;

/** `changed_since`: the date of the earlier check and what changed, or null when nothing did. */
export function describeChange(previous: PreviousResult | undefined, current: Pick<ResultRecord, 'status' | 'beneficiaryName'>): string | null {
  if (!previous) return null;
  if (current.status !== 'VERIFIED' && current.status !== 'NOT_VERIFIED') return null;
  const changes: string[] = [];
  if (previous.status !== current.status) changes.push(`status ${previous.status} -> ${current.status}`);
  const before = (previous.beneficiaryName ?? '').trim();
  const after = (current.beneficiaryName ?? '').trim();
  if (before.toUpperCase() !== after.toUpperCase() && before !== '' && after !== '') {
    changes.push(`beneficiary name "${before}" -> "${after}"`);
  }
  if (changes.length === 0) return null;
  return `${new Date(previous.verifiedAt).toISOString().slice(0, 10)}: ${changes.join('; ')}`;
}

/** Whether a `changed_since` says the holder's name changed (a status change alone is not a new holder). */
export function holderChangedIn(changedSince: string | null | undefined): boolean {
  return changedSince !== null && changedSince !== undefined && changedSince.includes('beneficiary name "');
}
