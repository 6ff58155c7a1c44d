/**
 * Stage 2 of the bank run (docs/ARCHITECTURE.md, "The bank run"): what each row needs. A row
 * that fails its local checks is INVALID with no call; a later row of a payee joins the payee's
 * first row; a payee an earlier run answered takes that answer; a deferred account waits; a
 * result young enough is reused (--reuse); only what is left is handed to the caller.
 */
import type { BankStore } from '../../state/bank-store.js';
import type { PayeeRecord } from '../../state/types.js';
import { unknownBankReason, type IfscRegistry } from '../../input/ifsc-registry.js';
import { payeeCells, type ColumnMap } from '../../input/recognise.js';
import { checkAccount, checkConfirmAccount, checkConfirmIfsc, checkIfsc, checkRow, unwrapSpreadsheetText } from '../checks.js';
import type { PayeeLedger } from './ledger.js';
import type { LivePayees } from './payees.js';
import { newPayee, outcomeOfRecord } from './results.js';
import type { BankRunOptions, BankRunSummary, PayeeTask, Slot } from './types.js';

/** Payees read from the state per scan. */
export const STORED_PAYEES_CHUNK = 1_024;

export interface PlannerContext {
  options: BankRunOptions;
  store: BankStore;
  /** The run's id; null only for a dry run of an input never run. */
  runId: number | null;
  /** Whether the run continues or re-emits one an earlier run stored. */
  resumed: boolean;
  header: readonly string[];
  columns: ColumnMap;
  payees: LivePayees;
  /** Every change of a payee's status goes through it. */
  ledger: PayeeLedger;
  summary: BankRunSummary;
  now: () => number;
  /** The shipped IFSC registry: a bank code that issues no IFSCs is INVALID with no call. Absent: not consulted. */
  ifscRegistry?: IfscRegistry | undefined;
  /** Hands a payee that needs the API to the caller. */
  dispatch: (task: PayeeTask) => void;
  /**
   * A spreadsheet's cells have their columns: one right of the header (a note beside a payee) shifts
   * nothing, and the row is a payee like the others. In a CSV, an extra field means a comma moved
   * every field after it: the row is malformed.
   */
  cellsPositioned?: boolean | undefined;
}

export class Planner {
  private readonly parts: PlannerContext;
  private readonly options: BankRunOptions;
  /** A dry run stores nothing: it remembers the payees it has met here instead. */
  private readonly dryRunPayees: Set<string> | undefined;
  private readonly stored: StoredPayees | undefined;
  /** A new run: the payees it has started, so that a payee met for the first time needs no lookup. */
  private readonly started: PayeeFilter | undefined;

  constructor(parts: PlannerContext) {
    this.parts = parts;
    this.options = parts.options;
    this.dryRunPayees = parts.options.dryRun ? new Set<string>() : undefined;
    // Resuming or re-emitting, most rows are the first of their payee and were stored by an
    // earlier run: their payees and answers are read alongside the file, in its order.
    this.stored = parts.resumed && parts.runId !== null && !parts.options.dryRun ? new StoredPayees(parts.store, parts.runId) : undefined;
    // In a run this invocation created, only payees it started are stored: one the filter has
    // never seen is new without asking the state.
    this.started = !parts.resumed && !parts.options.dryRun ? new PayeeFilter() : undefined;
  }

  /** Decides what data row number `row` (in `slot`) needs: an outcome now, or its payee's. */
  plan(slot: Slot, row: number): void {
    const { header, columns, summary } = this.parts;
    const { fields, line } = slot;
    const besideHeader = this.parts.cellsPositioned === true && fields.length > header.length;
    if (fields.length !== header.length && !besideHeader) {
      const reason = `line ${line} has ${fields.length} field(s), the header has ${header.length}: fix the row's quoting or commas`;
      slot.outcome = { status: 'INVALID', reason, source: 'local', result: undefined, requestId: '' };
      summary.avoided.local += 1;
      return;
    }
    // Account and IFSC may share one cell ("1234567890 / SBIN0001234"): payeeCells splits it.
    const cells = payeeCells(slot.read ?? fields, columns);
    const check = checkRow(cells.account, cells.ifsc);
    // The IFSC registry: a bank code that issues no IFSCs is INVALID, with no call; what it says
    // of the IFSC stays with the row for its output (bank_name, the note in verify_reason).
    const registry = this.parts.ifscRegistry;
    const lookup = registry?.lookup(unwrapSpreadsheetText(cells.ifsc).replace(/\s+/g, ''));
    slot.ifsc = lookup;
    const unknownBank = check.ok && lookup?.status === 'unknown-bank' ? unknownBankReason(lookup, registry!) : undefined;
    // A confirm column ("Re-enter Account No") that disagrees: one of the two cells is mistyped, and
    // the account verified might be a stranger's. Checked before a duplicate joins its payee, so no
    // other row's answer reaches it; named first, beside a wrong IFSC, as a wrong account is.
    const account = columns.confirm === undefined ? undefined : checkAccount(cells.account);
    const confirm = account?.ok ? checkConfirmAccount(account.account, fields[columns.confirm!] ?? '', header[columns.confirm!] ?? '') : undefined;
    // Likewise a confirm IFSC column ("Confirm IFSC Code"): the branch verified would be one cell's, the one paid the other's.
    const ifsc = columns.confirmIfsc === undefined ? undefined : checkIfsc(cells.ifsc);
    const confirmIfsc = ifsc?.ok ? checkConfirmIfsc(ifsc.ifsc, fields[columns.confirmIfsc!] ?? '', header[columns.confirmIfsc!] ?? '') : undefined;
    const reasons: string[] = [];
    if (confirm?.ok === false) reasons.push(confirm.reason);
    if (confirmIfsc?.ok === false) reasons.push(confirmIfsc.reason);
    if (!check.ok) reasons.push(check.reason);
    else if (unknownBank !== undefined) reasons.push(unknownBank);
    if (reasons.length > 0 || !check.ok) {
      const failed = reasons.join('; ');
      slot.outcome = { status: 'INVALID', reason: `line ${line}: ${failed}`, source: 'local', result: undefined, requestId: '' };
      summary.avoided.local += 1;
      return;
    }
    slot.payee = { account: check.account, ifsc: check.ifsc };
    const key = `${check.account}|${check.ifsc}`;
    const live = this.parts.payees.waitingFor(key);
    if (live) {
      slot.task = live;
      slot.duplicate = true;
      summary.avoided.duplicate += 1;
    } else if (this.dryRunPayees) {
      this.planDryRun(slot, row, check.account, check.ifsc, key);
    } else {
      this.planStored(slot, row, check.account, check.ifsc, key);
    }
  }

  /** A row that is not a payee (src/input/row-kind.ts): copied through, SKIPPED, no call, no state. */
  skip(slot: Slot, reason: string): void {
    slot.outcome = { status: 'SKIPPED', reason: `not a payee row: ${reason}`, source: '', result: undefined, requestId: '' };
  }

  private planDryRun(slot: Slot, row: number, account: string, ifsc: string, payee: string): void {
    if (this.dryRunPayees!.has(payee)) {
      slot.outcome = { status: 'VERIFIED', reason: 'dry run', source: 'duplicate', result: undefined, requestId: '' };
      this.parts.summary.avoided.duplicate += 1;
      return;
    }
    this.dryRunPayees!.add(payee);
    const { runId, store } = this.parts;
    const record = runId === null ? undefined : store.getPayee(runId, account, ifsc);
    slot.task = this.start(record ?? newPayee(account, ifsc, row), record !== undefined);
  }

  /** `key`: the payee, `account|ifsc`. */
  private planStored(slot: Slot, row: number, account: string, ifsc: string, key: string): void {
    const { store, runId, summary } = this.parts;
    // The first row of a payee an earlier run of this input stored comes from the scan. In a
    // new run, a payee already answered left the live payees but is stored (a later row joins it).
    const maybeStarted = this.started === undefined || this.started.mayHold(key);
    const record = this.stored?.at(row, account, ifsc) ?? (maybeStarted ? store.getPayee(runId!, account, ifsc) : undefined);
    this.started?.add(key);
    if (!record) {
      slot.task = this.start(newPayee(account, ifsc, row), false);
    } else if (record.firstRow !== row) {
      const known = outcomeOfRecord(store, record);
      slot.duplicate = true;
      summary.avoided.duplicate += 1;
      if (known) slot.outcome = { ...known, source: 'duplicate' };
      else slot.task = this.start(record, true);
    } else {
      slot.task = this.start(record, true);
    }
  }

  /** Decides what a payee needs the first time it is met in this run. */
  private start(record: PayeeRecord, stored: boolean): PayeeTask {
    const { store, payees, ledger, now } = this.parts;
    const task: PayeeTask = { payee: record.payee, firstRow: record.firstRow, stored, account: record.account, ifsc: record.ifsc, outcome: undefined };
    payees.add(task);
    const at = now();
    let known = outcomeOfRecord(store, record);
    // Nightly re-verification (--max-age): an answer older than that is asked again; a holder
    // may have changed since. A younger one is re-emitted as it is.
    if (known?.result && record.status === 'DONE') {
      if (this.dueForRecheck(known.result.verifiedAt, at)) {
        ledger.requeue(record);
        this.parts.summary.reverify.rechecked += 1;
        known = undefined;
      } else {
        this.parts.summary.reverify.reused += 1;
      }
    }
    if (known && !(record.status === 'DEFERRED' && (record.dueAt ?? 0) <= at) && record.status !== 'FAILED') {
      if (record.status === 'DEFERRED' && record.dueAt !== null) payees.deferAccount(record.account, record.dueAt);
      ledger.known(task, known);
      return task;
    }
    // Due again (a deferral that has expired, or a failure): back to PENDING.
    if (record.status === 'DEFERRED' || record.status === 'FAILED') ledger.requeue(record);
    const dueAt = payees.deferredUntil(record.account);
    if (dueAt !== undefined && dueAt > at) {
      ledger.defer(task, dueAt);
      return task;
    }
    if (this.reuse(task, record, at)) return task;
    // Never pay twice: a payee the deposit history holds (any run, any file) gets no second penny-drop.
    const deposit = this.options.mode === 'pd' ? ledger.depositOf(task) : undefined;
    if (deposit) {
      ledger.deposited(task, deposit);
      return task;
    }
    if (this.options.dryRun) {
      this.parts.summary.wouldCall[this.options.mode === 'pd' ? 'pd' : 'pl'] += 1;
      ledger.known(task, { status: 'VERIFIED', reason: 'dry run', source: 'api', result: undefined, requestId: '' });
      return task;
    }
    this.parts.dispatch(task);
    return task;
  }

  /** Whether an answer given at `verifiedAt` is older than --max-age (never for a dry run, which changes nothing). */
  private dueForRecheck(verifiedAt: number, at: number): boolean {
    const { maxAgeMs, dryRun } = this.options;
    return maxAgeMs !== undefined && !dryRun && verifiedAt < at - maxAgeMs;
  }

  /** --reuse: a final result young enough (and in a mode at least as strong) answers the payee. */
  private reuse(task: PayeeTask, record: PayeeRecord, at: number): boolean {
    const { options } = this;
    if (options.reuseMs === undefined) return false;
    const reusable = this.parts.store.findReusable(record.account, record.ifsc, options.mode === 'pd' ? 'pd' : 'pl', at - options.reuseMs);
    const fitsHybrid = options.mode !== 'hybrid' || reusable?.mode === 'pd' || reusable?.status !== 'NOT_VERIFIED';
    if (!reusable || !fitsHybrid) return false;
    this.parts.ledger.reuse(task, reusable);
    return true;
  }
}

/**
 * The run's stored payee whose first row is `row` (for that account and IFSC), read by range
 * scans in file order. Asked for rows in increasing order. A payee this run stores later is not
 * seen, nor needed: it belongs to a row already read.
 */
export class StoredPayees {
  private readonly store: BankStore;
  private readonly runId: number;
  private chunk: PayeeRecord[] = [];
  private pos = 0;
  private exhausted = false;

  constructor(store: BankStore, runId: number) {
    this.store = store;
    this.runId = runId;
  }

  at(row: number, account: string, ifsc: string): PayeeRecord | undefined {
    for (;;) {
      while (this.pos < this.chunk.length && this.chunk[this.pos]!.firstRow < row) this.pos += 1;
      if (this.pos < this.chunk.length) {
        const record = this.chunk[this.pos]!;
        return record.firstRow === row && record.account === account && record.ifsc === ifsc ? record : undefined;
      }
      if (this.exhausted) return undefined;
      this.chunk = this.store.payeesFrom(this.runId, row, STORED_PAYEES_CHUNK);
      this.pos = 0;
      this.exhausted = this.chunk.length < STORED_PAYEES_CHUNK;
    }
  }
}

/**
 * A Bloom filter of the payees a new run has started (`account|ifsc`): 2 MiB whatever the file,
 * two bits per payee, about 1.4% false positives at a million payees. A payee it does not hold
 * was never stored by this run; one it may hold is looked up. Saves a state lookup per row.
 */
export class PayeeFilter {
  private static readonly BITS = 1 << 24;
  private readonly bits = new Uint32Array(PayeeFilter.BITS / 32);

  add(key: string): void {
    positions(key);
    const a = POSITIONS[0]!;
    const b = POSITIONS[1]!;
    this.bits[a >>> 5]! |= 1 << (a & 31);
    this.bits[b >>> 5]! |= 1 << (b & 31);
  }

  /** False: `key` was never added. True: it probably was. */
  mayHold(key: string): boolean {
    positions(key);
    const a = POSITIONS[0]!;
    const b = POSITIONS[1]!;
    return (this.bits[a >>> 5]! & (1 << (a & 31))) !== 0 && (this.bits[b >>> 5]! & (1 << (b & 31))) !== 0;
  }
}

/** positions()'s answer, kept in one place instead of an array per call. */
const POSITIONS = new Uint32Array(2);

/** Two bit positions of a key (into POSITIONS): FNV-1a and a second, differently seeded, hash of its characters. */
function positions(key: string): void {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < key.length; i += 1) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  const mask = (1 << 24) - 1;
  POSITIONS[0] = h1 & mask;
  POSITIONS[1] = h2 & mask;
}
