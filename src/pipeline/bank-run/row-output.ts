/** A row that leaves: its name verdict, its counts, and its output record. */
import { registryBankName, registryNote, type IfscRegistry } from '../../input/ifsc-registry.js';
import { outcomeCells, type RowOutcome } from '../columns.js';
import { countNameMatch, countRow } from './summary.js';
import type { BankRunSummary, NameMatcher, Slot } from './types.js';

/** Longer than any payee name (banks keep 35–140 characters): not matched, NO_MATCH. */
export const MAX_NAME_CHARS = 1_000;

/** How well the file's payee name matches the bank's beneficiary name; undefined when there is nothing to match. */
export function nameVerdict(expected: string, beneficiary: string | null | undefined, matchNames: NameMatcher): { score: number; result: string } | undefined {
  if (!beneficiary || expected.trim() === '') return undefined;
  // A cell of megabytes is not a name, and the matcher's work grows with its length
  // (a 5 MB run of initials exhausts the heap): it cannot match, say so at no cost.
  if (expected.length > MAX_NAME_CHARS || beneficiary.length > MAX_NAME_CHARS) return { score: 0, result: 'NO_MATCH' };
  return matchNames(expected, beneficiary);
}

export interface RowOutputContext {
  header: readonly string[];
  /** Index of the payee name column; -1 when the file has none. */
  nameColumn: number;
  matchNames: NameMatcher | undefined;
  /** The shipped IFSC registry: bank_name where the API gave none, its note in verify_reason. Absent: not consulted. */
  ifscRegistry?: IfscRegistry | undefined;
  summary: BankRunSummary;
  /** Whether a file is written (not for a dry run). */
  writes: boolean;
}

/** The writer's FinishRow: counts the row, gives it its name verdict, and returns its output record. */
export function createRowFinisher(parts: RowOutputContext): (slot: Slot, outcome: RowOutcome) => string[] | undefined {
  const { header, nameColumn, matchNames, ifscRegistry, summary, writes } = parts;
  const hasName = nameColumn >= 0;
  return (slot, outcome) => {
    countRow(summary, outcome);
    if (hasName && matchNames) {
      const match = nameVerdict(slot.fields[nameColumn] ?? '', outcome.result?.beneficiaryName, matchNames);
      if (match) {
        outcome.nameMatch = match;
        countNameMatch(summary, match.result);
      }
    }
    if (!writes) return undefined;
    const fields = slot.fields.length === header.length ? slot.fields : padTo(slot.fields, header.length);
    // bank_name from the registry where the API gave none; the registry's note in verify_reason.
    const registry = ifscRegistry ? { bankName: registryBankName(slot.ifsc), note: registryNote(slot.ifsc, ifscRegistry) } : undefined;
    return fields.concat(outcomeCells(outcome, hasName, registry));
  };
}

function padTo(fields: string[], length: number): string[] {
  if (fields.length > length) return fields.slice(0, length);
  return [...fields, ...new Array<string>(length - fields.length).fill('')];
}
