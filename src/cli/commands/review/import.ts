/**
 * `vas-verify review --import FILE`: a placeholder in this branch; the command that takes the
 * decisions from an edited enriched file is built beside it (src/review/import.ts). Its flags are
 * that command's `ReviewImportFlags` (`file` is the --import FILE), so either file compiles here.
 */
import { UsageError } from '../../../errors.js';
import type { CommandIo } from '../../io.js';

export async function reviewImportCommand(
  flags: { file: string; state?: string | undefined; run?: number | undefined; reviewer?: string | undefined; approvals?: number | undefined },
  io: CommandIo,
): Promise<number> {
  void flags;
  void io;
  throw new UsageError('review --import is not built yet');
}
