/**
 * Verdicts and the score thresholds that bucket a 0–100 score into them. The thresholds are the
 * one place that decides what a "direct match" is; the rules in match-names.ts are written
 * against them (a cap of 45 means "never better than POOR_PARTIAL_MATCH").
 */

export type NameMatchResult =
  | 'DIRECT_MATCH'
  | 'GOOD_PARTIAL_MATCH'
  | 'MODERATE_PARTIAL_MATCH'
  | 'POOR_PARTIAL_MATCH'
  | 'NO_MATCH';

/** All verdicts, best first (index = distance in buckets, used by "within one bucket"). */
export const NAME_MATCH_RESULTS: readonly NameMatchResult[] = [
  'DIRECT_MATCH',
  'GOOD_PARTIAL_MATCH',
  'MODERATE_PARTIAL_MATCH',
  'POOR_PARTIAL_MATCH',
  'NO_MATCH',
];

/** Lowest score that is a DIRECT_MATCH: same name up to spelling, order, titles, suffixes. */
export const DIRECT_MATCH_MIN_SCORE = 90;
/** Lowest score that is a GOOD_PARTIAL_MATCH: consistent, but something is abbreviated, missing or cut. */
export const GOOD_PARTIAL_MATCH_MIN_SCORE = 75;
/** Lowest score that is a MODERATE_PARTIAL_MATCH: overlaps, needs a human look. */
export const MODERATE_PARTIAL_MATCH_MIN_SCORE = 55;
/** Lowest score that is a POOR_PARTIAL_MATCH: shares something (a surname), most likely someone else. */
export const POOR_PARTIAL_MATCH_MIN_SCORE = 35;

/** The verdict for a 0–100 score. */
export function toNameMatchResult(score: number): NameMatchResult {
  if (score >= DIRECT_MATCH_MIN_SCORE) return 'DIRECT_MATCH';
  if (score >= GOOD_PARTIAL_MATCH_MIN_SCORE) return 'GOOD_PARTIAL_MATCH';
  if (score >= MODERATE_PARTIAL_MATCH_MIN_SCORE) return 'MODERATE_PARTIAL_MATCH';
  if (score >= POOR_PARTIAL_MATCH_MIN_SCORE) return 'POOR_PARTIAL_MATCH';
  return 'NO_MATCH';
}
