/** The state's SQL for one payee, shared by the per-answer lookups (bank-store.ts, deposits.ts). */

/**
 * `account = ? AND ifsc = ?` for the newest-first lookups that run once per payee. Written with
 * CAST because SQLite re-plans a statement whose ORDER BY it checks against `column = ?` every
 * time that parameter is bound anew (the whole parse and plan again: 6–9 µs a call, 4% of a
 * run's CPU under perf); a cast value is no bare parameter, so the plan is made once. The
 * columns are TEXT and the values strings: the cast changes nothing else, and the index
 * (account, ifsc, …) is still used.
 */
export const PAYEE_KEY = 'account = CAST(? AS TEXT) AND ifsc = CAST(? AS TEXT)';
