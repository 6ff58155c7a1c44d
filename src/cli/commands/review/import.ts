/**
 * `vas-verify review --import FILE`: a placeholder in this branch; the command that takes the
 * decisions from an edited enriched file is built beside it (src/review/import.ts).
 */
import { UsageError } from '../../../errors.js';
import type { CommandIo } from '../../io.js';

export async function reviewImportCommand(
  flags: { import: string; state?: string; run?: number; reviewer?: string; approvals?: number },
  io: CommandIo,
): Promise<number> {
  void flags;
  void io;
  throw new UsageError('review --import is not built yet');
}
