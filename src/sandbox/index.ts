/**
 * The embedded sandbox: a local imitation of the verification API (docs/ARCHITECTURE.md, "The sandbox") for demos and
 * tests. `startSandbox()` is what the CLI's `sandbox` command and `--sandbox` flag run.
 */
export { startSandbox, type Sandbox, type SandboxStats } from './server.js';
export {
  FAULT_KINDS,
  parseFaults,
  parseLatency,
  SANDBOX_DEFAULTS,
  type FaultKind,
  type SandboxOptions,
} from './options.js';
export { loadRegistry, type RegistryEntry } from './registry.js';
export { holderNameFor, personFor, type Person } from './data/names.js';
export { bankStyleHolder, payeeHolder, holderShare, CHANGED_HOLDER_SHARE, DIFFERENT_HOLDER_SHARE, type HolderShare } from './bank-style.js';
export { ifscDetailsFor, IFSC_PATTERN } from './ifsc.js';
export { BANKS, type Bank } from './data/banks.js';
export { PLACES, type Place } from './data/places.js';
export { NOT_VERIFIED_REMARKS, SLOW_ACCOUNT_DELAY_MS, planBankRequest, type BankPlan } from './scenarios.js';
export type { IfscDetails } from '../api/schemas.js';
