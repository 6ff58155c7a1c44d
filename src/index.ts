/** The library: `import { createClient, startSandbox } from 'vas-verify'`. */
export * from './api/index.js';
export { startSandbox, parseLatency, parseFaults, loadRegistry, holderNameFor, ifscDetailsFor } from './sandbox/index.js';
export type { Sandbox, SandboxOptions, SandboxStats, RegistryEntry, FaultKind } from './sandbox/index.js';
export { matchNames } from './match/index.js';
export type { NameMatch, NameMatchResult } from './match/index.js';
export { runBank } from './pipeline/bank-run/index.js';
export type { BankRunOptions, BankRunDeps, BankRunSummary } from './pipeline/bank-run/index.js';
export { openDatabase } from './state/db.js';
export { BankStore } from './state/bank-store.js';
export { isAlive } from './state/run-lock.js';
export * from './docs/index.js';
