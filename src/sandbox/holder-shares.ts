/**
 * The documented shares of `bank --sandbox` holders derived from the payee file (bank-style.ts),
 * alone in this module so `--help` can quote them without loading the sandbox.
 */

/** Share of accounts whose holder is another person than the file's payee (NO_MATCH, like a wrong account number). */
export const DIFFERENT_HOLDER_SHARE = 0.03;
/**
 * Share of accounts whose holder changes from one IST day to the next: the payee's name on even
 * days, another person's on odd days, so any two consecutive nights show `changed_since` on them.
 */
export const CHANGED_HOLDER_SHARE = 0.02;
