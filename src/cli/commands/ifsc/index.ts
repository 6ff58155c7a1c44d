/** `vas-verify ifsc CODE`: what the shipped IFSC registry knows of a code (src/input/ifsc-registry.ts). */
import { EXIT } from '../../exit.js';
import { UsageError } from '../../../errors.js';
import { ifscRegistry } from '../../../input/ifsc-registry.js';
import type { CommandIo } from '../../io.js';
import type { IfscFlags } from './options.js';

/** Exit 0 when the code's bank is known (listed or not), 1 when no bank issues IFSCs under its code. */
export async function ifscCommand({ code }: IfscFlags, { stdout }: CommandIo): Promise<number> {
  const registry = ifscRegistry();
  const lookup = registry.lookup(code);
  if (lookup.status === 'malformed') {
    throw new UsageError(`"${code}" is not an IFSC: 11 characters, 4 letters (the bank code), the digit 0, then 6 letters or digits`);
  }
  const meaning = {
    listed: 'the registry lists this branch',
    'unlisted-branch': 'a branch of a known bank that the registry does not list (it lags new branches): verification still calls the API',
    'unknown-bank': 'no bank issues IFSCs under this code: verification marks it INVALID without a call',
  }[lookup.status];
  stdout(`${JSON.stringify({ ...lookup, meaning, registry: { source: registry.source, published: registry.published } }, null, 2)}\n`);
  return lookup.status === 'unknown-bank' ? EXIT.fatal : EXIT.ok;
}
