/** The state's SQL for one payee, shared by its newest-first lookups (bank-store.ts, deposits.ts, reviews.ts, review-reader.ts). */

/**
 * `account = ? AND ifsc = ?` for the newest-first lookups of one payee. Written with CAST because
 * SQLite prepared such a statement (a bare `column = ?` beside an ORDER BY) again every time its
 * parameters were bound: perf showed `sqlite3Reprepare` at 4% of a run's CPU, and on a plain table
 * the lookup cost 6–9 µs against 1 µs without the ORDER BY — and 1 µs with the CAST. The columns
 * are TEXT and the values strings, so the CAST changes no answer; the index (account, ifsc, …) is
 * still searched (test/state-lookups.test.ts).
 */
export const PAYEE_KEY = 'account = CAST(? AS TEXT) AND ifsc = CAST(? AS TEXT)';
