/** `vas-verify name-match`: the same matcher the bank command uses, for a person to see why. */
import { EXIT } from '../../exit.js';
import { matchNames, NAME_MATCH_RULES, type NameMatchRule } from '../../../match/index.js';

import type { CommandIo } from '../../io.js';
import type { NameMatchFlags } from './options.js';

export async function nameMatchCommand({ expected, actual, explain }: NameMatchFlags, { stdout }: CommandIo): Promise<number> {
  const match = matchNames(expected, actual, { explain });
  const out: Record<string, unknown> = { score: match.score, result: match.result };
  if (explain) {
    out.rules = match.rules;
    // Each rule in words, then how each side was read and paired, and which caps decided.
    out.why = match.rules.map((rule) => `${rule}: ${NAME_MATCH_RULES[rule as NameMatchRule] ?? ''}`);
    if (match.explanation !== undefined) {
      const { expected: e, actual: a, pairs, unmatchedExpected, unmatchedActual, baseScore, caps } = match.explanation;
      out.tokens = { expected: e, actual: a };
      out.pairing = pairs;
      out.unmatched = { expected: unmatchedExpected, actual: unmatchedActual };
      out.baseScore = baseScore;
      out.caps = caps;
    }
  }
  stdout(`${JSON.stringify(out, null, explain ? 2 : undefined)}\n`);
  return EXIT.ok;
}
