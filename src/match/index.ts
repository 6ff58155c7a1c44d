/**
 * Payee-name matching: is the beneficiary name the bank returned the payee the finance team
 * expected? Used by `vas-verify bank` (the `name_match` columns) and `vas-verify name-match`.
 */
export { matchNames, type NameMatch, type MatchOptions, type NameMatchExplanation, type NamePairing, type NameReading } from './match-names.js';
export {
  NAME_MATCH_RESULTS,
  DIRECT_MATCH_MIN_SCORE,
  GOOD_PARTIAL_MATCH_MIN_SCORE,
  MODERATE_PARTIAL_MATCH_MIN_SCORE,
  POOR_PARTIAL_MATCH_MIN_SCORE,
  toNameMatchResult,
  type NameMatchResult,
} from './verdict.js';
export { NAME_MATCH_RULES, type NameMatchRule } from './rules.js';
