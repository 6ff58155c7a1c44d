/**
 * What a failed call comes to (docs/ARCHITECTURE.md, "Life of a row"): one pure decision, asked
 * in a fixed order, table-tested. The ledger carries it out; the breaker counts service failures.
 */
import type { VasError } from '../../api/errors.js';
import { DEFAULT_RETRY_POLICY } from '../../api/retry.js';
import type { VerifyMode } from '../../state/types.js';

/**
 * - `defer`: the account's daily limit: this payee and every other of the account wait for the next IST day.
 * - `refuse`: the API refused the account or IFSC: a final INVALID answer.
 * - `unconfirm`: a penny-drop whose answer may be lost: a rupee may have moved, never re-sent by itself.
 * - `release`: the request was cancelled before an answer (a stop): back to PENDING, nothing in doubt.
 * - `stop-auth`: the credentials were refused: back to PENDING and the run stops.
 * - `stop-tls`: the server's TLS certificate failed verification: back to PENDING and the run
 *   stops; every other call would fail alike, and nothing was sent.
 * - `stop-wait`: a 429 or 503 whose Retry-After is longer than the client waits (the quota used
 *   up, the service down for a while): back to PENDING and the run stops; every other call would
 *   be refused alike.
 * - `service`: the service failed (after the client's retries): FAILED, unless the breaker says the run stops.
 * - `fail`: anything else the API answered: FAILED.
 */
export type FailureAction = 'defer' | 'refuse' | 'unconfirm' | 'release' | 'stop-auth' | 'stop-tls' | 'stop-wait' | 'service' | 'fail';

/** Kinds that say the service, not the payee, failed: they count towards the circuit breaker. */
const SERVICE_KINDS: ReadonlySet<string> = new Set(['unavailable', 'network', 'timeout', 'server', 'quota', 'protocol']);

export function failureAction(error: Pick<VasError, 'kind' | 'code' | 'ambiguous'> & { retryAfterMs?: number | undefined }, mode: VerifyMode): FailureAction {
  if (error.code === 'daily-limit') return 'defer';
  if (error.kind === 'invalid-input') return 'refuse';
  if (mode === 'pd' && error.ambiguous) return 'unconfirm';
  if (error.code === 'aborted') return 'release';
  if (error.kind === 'auth') return 'stop-auth';
  if (error.code === 'tls-certificate') return 'stop-tls';
  if (isLongWait(error)) return 'stop-wait';
  if (SERVICE_KINDS.has(error.kind)) return 'service';
  return 'fail';
}

/** A 429 or 503 the client did not retry because its Retry-After is longer than a run waits (api/retry.ts). */
export function isLongWait(error: { retryAfterMs?: number | undefined }): boolean {
  return error.retryAfterMs !== undefined && error.retryAfterMs > DEFAULT_RETRY_POLICY.maxRetryAfterMs;
}
