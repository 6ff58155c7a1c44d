/**
 * `vas-verify audit [--state S] [--run N] [--format json|csv]`: prints the audit trail
 * (src/release/audit.ts) with account numbers masked, and verifies its hash chain: a changed,
 * removed or inserted entry ends the command with exit 1 and one line naming the first one.
 */
import { StateFileError, UsageError } from '../../../errors.js';
import { RunRecords } from '../../../state/run-record.js';
import { AUDIT_CSV_COLUMNS, checkAuditTrail, formatEntry } from '../../../release/audit.js';
import { encodeCsv } from '../../../output/csv.js';
import { AuditTrail } from '../../../state/audit.js';
import { auditConsistencyProblem } from '../../../state/audit-consistency.js';
import { EXIT } from '../../exit.js';
import type { CommandIo } from '../../io.js';
import { openStateReadOnly, stateReadError } from '../release/state.js';
import type { AuditFlags } from './options.js';

export async function auditCommand(flags: AuditFlags, io: CommandIo): Promise<number> {
  // Read-only: an auditor may be handed a copy, and nothing here writes (a file that is not a
  // state is refused before SQLite opens it, and left as it was).
  const { db, statePath } = openStateReadOnly(flags.state, flags.run, io);
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit'").get() !== undefined;
    if (!hasTable) throw new StateFileError(`${statePath} has no audit trail (a state of an older version): run the bank command with this version first`);
    if (flags.run !== undefined && !new RunRecords(db).run(flags.run)) throw new UsageError(`state file ${statePath} has no run ${flags.run}: leave out --run for the whole trail`);
    if (flags.format === 'csv') io.stdout(encodeCsv([[...AUDIT_CSV_COLUMNS]]));
    const check = checkAuditTrail(new AuditTrail(db), flags.run, (entry) => io.stdout(formatEntry(entry, flags.format)));
    const problem = check.problem ?? auditConsistencyProblem(db, flags.run);
    if (problem !== undefined) {
      io.log.error(`the audit trail of ${statePath} is broken: ${problem}; it was changed by other means than vas-verify — keep this file as evidence and restore the state from a backup`);
      return EXIT.fatal;
    }
    const scope = flags.run === undefined ? '' : ` (${check.printed} of run ${flags.run})`;
    io.log.info(`audit trail: ${check.entries} entr${check.entries === 1 ? 'y' : 'ies'}${scope}, hash chain verified, reviews and run decisions agree with it${check.lastHash ? ` (last hash ${check.lastHash})` : ''}`);
    return EXIT.ok;
  } catch (error) {
    throw stateReadError(statePath, error);
  } finally {
    db.close();
  }
}
