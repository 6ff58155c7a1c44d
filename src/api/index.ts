export { createClient, normaliseBaseUrl, DEFAULT_CONNECTIONS, DEFAULT_KEEP_ALIVE_MS } from './client.js';
export type { Client, ClientOptions, CallOptions, CallResult, BankVerifyInput, VerifyMode, RetryEvent } from './client.js';
export { VasError, isVasError, isDailyLimit } from './errors.js';
export type { ErrorKind, ErrorCode } from './errors.js';
export { decideRetry, DEFAULT_RETRY_POLICY } from './retry.js';
export type { RetryPolicy, RetryDecision, RetryReason } from './retry.js';
export { parseRetryAfter } from './retry-after.js';
export * from './schemas.js';
