/**
 * `release --exceptions FILE` (docs/ARCHITECTURE.md, "Decisions"): the payee rows the release
 * left out, each with the input's cells and why — its decision and decision_reason, its status
 * and reason code, the bank's holder, the name verdict, what changed since an earlier check, and
 * who reviewed it. CSV in the input's delimiter and line endings, UTF-8 with a BOM as
 * CsvFormat.bom says (or .xlsx by its name), mode 0600, renamed into place.
 */
import { renameClashes } from '../input/recognise.js';
import type { PayeeFile } from '../input/payee-file.js';
import { openOutput, type OutputSink } from '../output/sink.js';
import { neutralise } from '../pipeline/columns.js';
import type { WalkedRow } from './walk.js';

/** The columns after the input's (written `vas_<name>` where the input has the name). */
export const EXCEPTION_COLUMNS = ['decision', 'decision_reason', 'verify_status', 'verify_reason_code', 'beneficiary_name', 'name_match', 'name_match_score', 'changed_since', 'reviewed_by'] as const;

export interface ExceptionsFile {
  write(row: WalkedRow): void;
  /** Resolves once every row is written to the temporary file. */
  finish(): Promise<void>;
  /** Renames it into place. */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

const BATCH_ROWS = 256;

function exceptionCells(row: WalkedRow, width: number): string[] {
  const decided = row.decided!;
  const r = decided.row;
  const fields = row.fields.length >= width ? row.fields.slice(0, width) : [...row.fields, ...new Array<string>(width - row.fields.length).fill('')];
  return fields.concat([
    decided.decision, decided.reason, r.status, r.reasonCode, neutralise(decided.holder ?? ''), r.nameMatch ?? '',
    r.nameScore === null ? '' : String(r.nameScore), neutralise(decided.changedSince ?? ''), (decided.standing?.reviewers ?? []).map(neutralise).join('; '),
  ]);
}

export function openExceptions(file: string, input: PayeeFile): ExceptionsFile {
  const width = input.header.length;
  const { columns } = renameClashes(input.header, EXCEPTION_COLUMNS);
  const sink: OutputSink = openOutput(file, [...input.header, ...columns], undefined, [], { format: input.format });
  let batch: string[][] = [];
  let written: Promise<void> = Promise.resolve();
  const send = () => {
    const rows = batch;
    batch = [];
    written = written.then(() => sink.writeRows(rows));
    written.catch(() => undefined); // awaited by finish(); not an unhandled rejection meanwhile
  };
  return {
    write(row) {
      batch.push(exceptionCells(row, width));
      if (batch.length >= BATCH_ROWS) send();
    },
    async finish() {
      send();
      await written;
    },
    commit: () => sink.commit(),
    discard: () => sink.discard(),
  };
}
