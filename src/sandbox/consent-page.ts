/**
 * The consent page a document-locker `url` points at. Plain server-rendered HTML with two
 * ordinary forms, so it works in a browser, with curl, and with a headless browser in tests
 * (buttons carry ids `approve` and `deny`).
 */

const html = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2933}
h1{font-size:1.4rem}ul{padding-left:1.2rem}.box{border:1px solid #cbd2d9;border-radius:8px;padding:1rem 1.25rem}
.actions{display:flex;gap:.75rem;margin-top:1rem}button{font-size:1rem;padding:.5rem 1.25rem;border-radius:6px;border:1px solid #7b8794;cursor:pointer}
#approve{background:#0b7a43;color:#fff;border-color:#0b7a43}label{display:block;margin-top:1rem}
input{font-size:1rem;padding:.35rem;letter-spacing:.3em;width:8rem}.note{color:#616e7c;font-size:.85rem}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export interface ConsentView {
  readonly sessionId: string;
  /** When false the holder must enter the locker PIN (any value is accepted in the sandbox). */
  readonly pinlessVerification: boolean;
  readonly expiresAt: Date;
}

/** The page asking the holder to share Aadhaar and PAN with the requester. */
export function renderConsentPage(view: ConsentView): string {
  const id = encodeURIComponent(view.sessionId);
  const pin = view.pinlessVerification
    ? ''
    : `<label for="pin">Document locker security PIN</label>
<input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" maxlength="6" placeholder="••••••">
<p class="note">Sandbox: any PIN is accepted.</p>`;
  return page(
    'Share your documents - vas-verify sandbox',
    `<h1>Share your documents</h1>
<div class="box">
<p><strong>VAS Verify Sandbox (demo requester)</strong> asks to receive these documents from your document locker:</p>
<ul id="documents">
<li>Aadhaar card (number masked to its last four digits)</li>
<li>PAN card</li>
</ul>
<p>The requester will see your name, date of birth, gender and the document numbers.</p>
<form method="post" action="/consent/${id}/approve">
${pin}
<div class="actions">
<button id="approve" type="submit">Approve</button>
</div>
</form>
<form method="post" action="/consent/${id}/deny">
<div class="actions"><button id="deny" type="submit">Deny</button></div>
</form>
</div>
<p class="note">Session ${html(view.sessionId)} · valid until ${html(view.expiresAt.toISOString())} · this is a sandbox, no real documents are shared.</p>`,
  );
}

export type ConsentOutcome = 'Completed' | 'Denied';

/** The page shown after a decision, or when the holder returns to a decided session. */
export function renderResultPage(status: ConsentOutcome, alreadyDecided = false): string {
  const heading = status === 'Completed' ? 'Documents shared' : 'Consent denied';
  const text =
    status === 'Completed'
      ? 'Your Aadhaar and PAN were shared with the requester.'
      : 'You declined to share your documents. Nothing was shared.';
  const prefix = alreadyDecided ? '<p>This request was already answered.</p>\n' : '';
  return page(
    `${heading} - vas-verify sandbox`,
    `<h1>${heading}</h1>\n${prefix}<p id="result" data-status="${status}">${text}</p>\n<p class="note">You can close this window.</p>`,
  );
}

/** The page for an unknown or expired session link. */
export function renderExpiredPage(): string {
  return page(
    'Link expired - vas-verify sandbox',
    '<h1>This link has expired or is invalid</h1>\n<p id="result" data-status="Expired">Ask the requester to start a new verification.</p>',
  );
}
