/**
 * Commands the tool prints for a person to paste (the resume command, the report's "continue
 * with"): every word is POSIX shell-quoted, so a file called `Vendor Payees $(touch PWNED).csv`
 * is a file name in the pasted line, never a command (README, "Security").
 */

/**
 * Words that mean the same quoted or not, in sh, bash and zsh: no `~`, and no `=` first (zsh
 * expands `=cmd` to a path); `=` further in is plain (`--where verify_status=FAILED`).
 */
const PLAIN_WORD = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+:,./=-]*$/;

/** One word for a POSIX shell: as it is when nothing in it is special, else in single quotes. */
export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  // Inside single quotes nothing is special but the quote itself: close, escape it, reopen.
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line from its words, each quoted. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
