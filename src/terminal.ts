/**
 * Text on its way to a terminal. Values that came from outside (a webhook's session id, an API's
 * message, a file name) may carry ESC sequences that move the cursor, rewrite earlier lines, set
 * the window title or ring the bell, or a bare CR that hides what came before. Every line the CLI
 * writes passes through `stripControl` (README, Security): C0 controls but tab and line feed, DEL,
 * C1 controls (0x80–0x9f, the 8-bit CSI among them), and the bidirectional controls become U+FFFD,
 * so a person can see that something was there. The bidirectional ones are every embedding,
 * override and isolate (U+202A–U+202E, U+2066–U+2069) and the three marks (U+200E, U+200F, U+061C):
 * any of them can make a line read differently from what it says ("Trojan Source").
 */

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function stripControl(text: string): string {
  // The common case (nothing to strip) allocates nothing.
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, '\ufffd') : text;
}
