/** `vas-verify name-match`: the same matcher the bank command uses, for a person to see why. */
import { matchNames } from '../../../match/index.js';

import type { CommandIo } from '../../io.js';
import type { NameMatchFlags } from './options.js';

export async function nameMatchCommand({ expected, actual, explain }: NameMatchFlags, { stdout }: CommandIo): Promise<number> {
  const match = matchNames(expected, actual);
  const out: Record<string, unknown> = { score: match.score, result: match.result };
  if (explain) out.rules = match.rules;
  stdout(`${JSON.stringify(out)}\n`);
  return 0;
}
