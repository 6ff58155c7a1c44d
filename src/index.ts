/**
 * The library's public API: `import { createClient, runBank, startSandbox } from 'vas-verify'`.
 * Every export is named here (no `export *`), so internals stay internal; see
 * docs/ARCHITECTURE.md, "Layout".
 */

// The client of the remote interface.
export { createClient, normaliseBaseUrl, DEFAULT_CONNECTIONS, DEFAULT_KEEP_ALIVE_MS } from './api/client.js';
export type { Client, ClientOptions, CallOptions, CallResult, BankVerifyInput, VerifyMode, RetryEvent, DownloadedDocument } from './api/client.js';
export { decideRetry, DEFAULT_RETRY_POLICY } from './api/retry.js';
export type { RetryPolicy, RetryDecision, RetryReason } from './api/retry.js';
export { parseRetryAfter } from './api/retry-after.js';
export type {
  BankResult,
  IfscDetails,
  VerificationStatus,
  DocInitRequest,
  DocInitResult,
  DocFetchResult,
  DocumentInfo,
} from './api/schemas.js';

// Errors: one family.
export { VasError, isVasError, isDailyLimit } from './api/errors.js';
export type { ErrorKind, ErrorCode } from './api/errors.js';
export {
  AppError,
  isAppError,
  UsageError,
  InputError,
  ColumnError,
  OutputError,
  StateFileError,
  AuditMismatchError,
  RunLockedError,
  EXIT_CODES,
} from './errors.js';
export type { AppErrorKind, ExitCode } from './errors.js';

// The bulk bank run and its state file.
export { runBank } from './pipeline/bank-run/index.js';
export type {
  BankRunOptions,
  BankRunDeps,
  BankRunSummary,
  Logger,
  NameMatcher,
  ProgressSnapshot,
  StopReason,
} from './pipeline/bank-run/index.js';
export { openDatabase } from './state/db.js';
export { BankStore } from './state/bank-store.js';
export { isAlive } from './state/run-lock.js';
export type { RunMode } from './state/types.js';

// Payee-name matching.
export { matchNames } from './match/index.js';
export type { NameMatch, NameMatchResult } from './match/index.js';

// The embedded sandbox.
export { startSandbox, parseLatency, parseFaults, loadRegistry, holderNameFor, ifscDetailsFor } from './sandbox/index.js';
export type { Sandbox, SandboxOptions, SandboxStats, RegistryEntry, FaultKind } from './sandbox/index.js';

// The document locker.
export { fetchDocuments, saveDocuments, DownloadDirError, startWebhookListener, newWebhookSecret, checkWebhookUrl, DEFAULT_POLL_POLICY, DEFAULT_WAIT_TIMEOUT } from './docs/index.js';
export type {
  FetchOutcome,
  WaitOptions,
  SaveOptions,
  SaveReport,
  SavedFile,
  SaveFailure,
  WebhookListener,
  WebhookListenerOptions,
  WebhookEvent,
  WebhookKind,
  PollPolicy,
} from './docs/index.js';
