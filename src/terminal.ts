/**
 * Text on its way to a terminal. Values that came from outside (a webhook's session id, an API's
 * message, a file name) may carry ESC sequences that move the cursor, rewrite earlier lines, set
 * the window title or ring the bell, or a bare CR that hides what came before. Every line the CLI
 * writes passes through `stripControl` (README, Security): C0 controls but tab and line feed, DEL,
 * C1 controls (0x80–0x9f, the 8-bit CSI among them), and the bidirectional overrides become U+FFFD,
 * so a person can see that something was there.
 */

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function stripControl(text: string): string {
  // The common case (nothing to strip) allocates nothing.
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, '\ufffd') : text;
}
