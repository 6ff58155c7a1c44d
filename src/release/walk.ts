/**
 * The run's input read again as the run read it (docs/ARCHITECTURE.md, "Decisions"): the same
 * file (its fingerprint), the same sheet, header and columns, each data row with its payee row's
 * decision now. A file that does not read as the run read it is refused, never guessed at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { inspectInput, type InputInfo } from '../input/inspect.js';
import { openPayeeFile, type PayeeFile } from '../input/payee-file.js';
import type { Delimiter } from '../input/read-csv.js';
import type { RecordedRunInputs } from '../state/run-record.js';
import type { Db } from '../state/types.js';
import { RunDecisions, recordedPolicyOf, type DecidedRow } from './decisions.js';
import type { DecisionPolicy } from '../decision/index.js';

/** A data row of the input: a payee row with its decision, or a row that is not a payee (blank, total, note). */
export interface WalkedRow {
  fields: string[];
  line: number;
  /** Undefined for a row that is not a payee. */
  decided: DecidedRow | undefined;
  /** Why a row is not a payee ("a total row"; src/input/row-kind.ts); undefined for a payee row. */
  notPayee?: string | undefined;
}

export interface RunInput {
  run: RecordedRunInputs;
  policy: { policy: DecisionPolicy; source: string };
  inputPath: string;
  info: InputInfo;
  file: PayeeFile;
  /** The data rows in file order (call once). */
  rows(): AsyncGenerator<WalkedRow>;
}

/** Opens the run's input as the run read it; `inputFlag` names it when it moved. Refuses a file that changed since the run. */
export async function openRunInput(db: Db, run: RecordedRunInputs, inputFlag: string | undefined, spoolDir?: string, approvals?: 1 | 2): Promise<RunInput> {
  const inputPath = inputFlag ?? run.input?.path ?? path.resolve(run.inputName);
  if (inputFlag === undefined && !fs.existsSync(inputPath)) {
    throw new InputError(`the input of run ${run.id}, ${inputPath} (given to the run as ${run.inputName}), is not there: give the run's input with --input FILE, or release from the folder the run was started in`);
  }
  const info = await inspectInput(inputPath);
  if (info.fingerprint !== run.fingerprint) {
    throw new InputError(`the input ${inputPath} changed since run ${run.id} read it (its content differs): release only what was verified; run the bank command on the new file first`);
  }
  const recorded = recordedPolicyOf(run.policy, run.id);
  // `--approvals 2` makes the run's policy stricter, never looser.
  const stricter = approvals !== undefined && approvals > recorded.policy.approvals;
  const policy = stricter ? { policy: { ...recorded.policy, approvals }, source: `${recorded.source}, approvals ${approvals} (--approvals)` } : recorded;
  const given = run.input;
  const file = await openPayeeFile(inputPath, info.encoding, {
    columns: given?.columns ?? {},
    headerRow: given?.headerRow,
    sheet: given?.sheet,
    delimiter: given?.delimiter as Delimiter | undefined,
    spoolDir,
  });
  const decisions = new RunDecisions(db, run.id, policy.policy);
  return { run, policy, inputPath, info, file, rows: () => walkRows(file, decisions, run.id, inputPath) };
}

async function* walkRows(file: PayeeFile, decisions: RunDecisions, runId: number, inputPath: string): AsyncGenerator<WalkedRow> {
  let row = 0;
  // A version that reads a row otherwise (an upgrade that knows a total row's label) is named as the cause.
  const readOtherwise = (line: number, now: string, then: string) => new InputError(
    `line ${line} of ${inputPath} is ${now} to this version of vas-verify, but run ${runId} read it as ${then}: release the run with the version that made it, or verify the file again with this one (bank without --resume; --reuse 30d takes the answers the state holds, with no call)`,
  );
  for (let next = await file.records.next(); !next.done; next = await file.records.next()) {
    const record = next.value;
    if (record.notPayee !== undefined) {
      const ran = decisions.at(row + 1);
      if (ran !== undefined && ran.row.line === record.line) throw readOtherwise(record.line, record.notPayee, `payee row ${row + 1}`);
      yield { fields: record.fields, line: record.line, decided: undefined, notPayee: record.notPayee };
      continue;
    }
    row += 1;
    const decided = decisions.at(row);
    if (decided !== undefined && decided.row.line > record.line) throw readOtherwise(record.line, `payee row ${row}`, 'a row that is not a payee (a total, a note or a blank row)');
    if (!decided || decided.row.line !== record.line) {
      const ran = decided ? `line ${decided.row.line}` : 'no such row';
      throw new InputError(`the input ${inputPath} does not read as run ${runId} read it (payee row ${row} is at line ${record.line}, the run had ${ran}): give the run's own file with --input; a run of an older version that was given --header-row, --sheet or column flags cannot be released, run the bank command again`);
    }
    yield { fields: record.fields, line: record.line, decided };
  }
  if (decisions.at(row + 1) !== undefined) {
    throw new InputError(`the input ${inputPath} has fewer payee rows than run ${runId} decided (${row}): give the run's own file with --input`);
  }
}
