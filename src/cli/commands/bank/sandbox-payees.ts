/**
 * `bank --sandbox` without `--sandbox-accounts` (issue #30): the payee file is read once, with the
 * run's own reader and column recogniser (src/input/payee-file.ts), into the account → payee name
 * map the in-process sandbox derives its holders from (src/sandbox/bank-style.ts).
 */
import { inspectInput, type InputInfo } from '../../../input/inspect.js';
import { openPayeeFile, type PayeeFileOptions } from '../../../input/payee-file.js';
import { nameColumnsOf, nameIn, payeeCells } from '../../../input/recognise.js';
import { checkAccount } from '../../../pipeline/checks.js';

/** Accounts the map holds at most (about 100 MB); accounts after them answer generated holders. */
export const MAX_SANDBOX_PAYEES = 1_000_000;
/** Characters of a payee name kept: banks print at most 50, the rest cannot change the holder. */
const MAX_KEPT_NAME = 120;

export interface SandboxPayees {
  /** Account number (digits, as the run sends it) → the name of its first payee row. */
  names: Map<string, string>;
  /** Whether the file has more accounts than MAX_SANDBOX_PAYEES (the rest were not read). */
  capped: boolean;
}

/**
 * The payee names by account, read as the run will read the file (the same columns, the same
 * account clean-up); an empty map when the file has no name column. Rows that are not payees,
 * invalid accounts and blank names are left out. Errors are the run's own (a column that cannot
 * be told, an unreadable file), found here first.
 */
export async function readSandboxPayees(inputPath: string, inspection: Promise<InputInfo> | undefined, options: PayeeFileOptions, limit = MAX_SANDBOX_PAYEES): Promise<SandboxPayees> {
  const info = await (inspection ?? inspectInput(inputPath));
  const file = await openPayeeFile(inputPath, info.encoding, options);
  const names = new Map<string, string>();
  try {
    if (file.columns.name < 0) return { names, capped: false };
    for (let next = await file.records.next(); !next.done; next = await file.records.next()) {
      const row = next.value;
      // The cells as the run reads them (a name merged down a group of accounts filled in).
      const fields = row.read ?? row.fields;
      const name = nameIn(fields, nameColumnsOf(file.columns)).trim();
      if (row.notPayee !== undefined || name === '') continue;
      const account = checkAccount(payeeCells(fields, file.columns).account);
      if (!account.ok || names.has(account.account)) continue;
      if (names.size >= limit) return { names, capped: true };
      names.set(account.account, name.slice(0, MAX_KEPT_NAME));
    }
    return { names, capped: false };
  } finally {
    file.close();
  }
}
