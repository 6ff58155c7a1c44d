/**
 * Who is who, for reviews (docs/ARCHITECTURE.md, "Decisions"): a payee name as the file gives it,
 * and a reviewer as people type their name. Pure.
 *
 * - An acceptance is for the payee name it was given on: the next row of the same account and
 *   holder keeps it only while the file names the same payee. Names are compared forgivingly —
 *   Unicode-normalised (NFKC), case, spacing and punctuation ignored: "Priya Khan." is
 *   "PRIYA  KHAN", "Priya Khanna" and "M/s Priya Khan" are not — so a re-typed cell keeps the
 *   acceptance and another payee does not.
 * - A reviewer is one person however the name is typed: "asha", "Asha" and " ASHA " count once
 *   (NFKC, trimmed, inner spaces collapsed, case-folded).
 */

/** The payee name as compared: NFKC, lower case, letters, digits and combining marks only ('' for no name). */
export function payeeNameKey(name: string | null | undefined): string {
  if (!name) return '';
  return name.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ').trim();
}

/** Whether two cells name the same payee (no name and a blank cell are the same: nothing). */
export function samePayeeName(a: string | null | undefined, b: string | null | undefined): boolean {
  return payeeNameKey(a) === payeeNameKey(b);
}

/** The reviewer as one person: NFKC, trimmed, inner spaces collapsed, lower case. */
export function reviewerKey(reviewer: string): string {
  return reviewer.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** Whether two names are the same reviewer. */
export function sameReviewer(a: string, b: string): boolean {
  return reviewerKey(a) === reviewerKey(b);
}

/** The distinct reviewers of a list, each as first written, in order. */
export function distinctReviewers(reviewers: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const r of reviewers) if (!seen.has(reviewerKey(r))) seen.set(reviewerKey(r), r);
  return [...seen.values()];
}
