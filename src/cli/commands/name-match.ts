/** `vas-verify name-match`: the same matcher the bank command uses, for a person to see why. */
import { matchNames } from '../../match/index.js';

export async function nameMatchCommand(expected: string, actual: string, explain: boolean, stdout: (t: string) => void): Promise<number> {
  const match = matchNames(expected, actual);
  const out: Record<string, unknown> = { score: match.score, result: match.result };
  if (explain) out.rules = match.rules;
  stdout(`${JSON.stringify(out)}\n`);
  return 0;
}
