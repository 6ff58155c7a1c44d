/** Table tests of the document-locker decisions, the store, and saving files from a real sandbox. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { createClient } from '../src/api/client.js';
import type { DocumentInfo } from '../src/api/schemas.js';
import {
  checkPdf,
  checkWebhookUrl,
  checkXml,
  classifyStatus,
  decideHead,
  formatDob,
  formatDocumentsTable,
  isJsonType,
  isSafeSessionId,
  maskAadhaar,
  MAX_WEBHOOK_BODY_BYTES,
  nextPollDelay,
  parseWebhookBody,
  planDocumentFiles,
  safeSegment,
  saveDocuments,
  toCell,
  webhookPaths,
  DEFAULT_POLL_POLICY,
} from '../src/docs/index.js';
import { openDatabase } from '../src/state/db.js';
import { DocsStore } from '../src/state/docs-store.js';
import { answerConsent, modeOf, sandbox, tempDir } from './docs-helpers.js';

test('formatDob: DDMMYYYY to YYYY-MM-DD, anything else as returned', () => {
  const cases: [string, string][] = [
    ['14051984', '1984-05-14'],
    ['01012000', '2000-01-01'],
    ['29022000', '2000-02-29'],
    ['29022001', '29022001'], // not a date
    ['31042001', '31042001'],
    ['00012000', '00012000'],
    ['1405198', '1405198'],
    ['1984-05-14', '1984-05-14'],
    ['', ''],
    [' 14051984 ', '1984-05-14'],
  ];
  for (const [raw, shown] of cases) assert.equal(formatDob(raw), shown, raw);
});

test('maskAadhaar: an Aadhaar number keeps only its last four digits; a masked one and other ids are shown as returned', () => {
  const cases: [string, string, string][] = [
    ['aadhaar', 'xxxxxxxx1234', 'xxxxxxxx1234'],
    ['aadhaar', 'XXXX XXXX 1234', 'XXXX XXXX 1234'],
    ['aadhaar', '234567890123', 'xxxxxxxx0123'],
    ['Aadhar', '2345 6789 0123', 'xxxxxxxx0123'],
    ['uid', '2345-6789-0123-4567', 'xxxxxxxx4567'],
    ['driving-licence', '2345 6789 0123', 'xxxxxxxx0123'],
    ['pan', 'ABCDE1234F', 'ABCDE1234F'],
    ['driving-licence', 'MH1420110062821', 'MH1420110062821'],
    ['passport', 'J8369854', 'J8369854'],
  ];
  for (const [docType, id, shown] of cases) assert.equal(maskAadhaar(docType, id), shown, `${docType} ${id}`);
});

test('toCell: control characters and bidi overrides cannot reach the terminal', () => {
  assert.equal(toCell('RAVI\u001b[31m KUMAR'), 'RAVI\ufffd[31m KUMAR');
  assert.equal(toCell('A\nB\rC\tD'), 'A\ufffdB\ufffdC\ufffdD');
  assert.equal(toCell('abc\u202edef'), 'abc\ufffddef');
  assert.equal(toCell('  many   spaces '), 'many spaces');
});

test('formatDocumentsTable: columns, masked Aadhaar as returned, dates, unknown docTypes kept', () => {
  const doc = (docType: string, idNumber: string, dob: string): DocumentInfo => ({
    docType, idNumber, name: 'ANANYA IYER', dob, gender: 'F', pdfUrl: 'u', xmlUrl: 'u',
  });
  const table = formatDocumentsTable([doc('aadhaar', 'xxxxxxxx1234', '02111990'), doc('pan', 'ABCPI1234Z', '02111990'), doc('drivingLicence', 'KA0120190001234', 'unknown')]);
  assert.equal(
    table,
    [
      'DOC TYPE        ID NUMBER        NAME         DATE OF BIRTH  GENDER',
      '--------------  ---------------  -----------  -------------  ------',
      'aadhaar         xxxxxxxx1234     ANANYA IYER  1990-11-02     F',
      'pan             ABCPI1234Z       ANANYA IYER  1990-11-02     F',
      'drivingLicence  KA0120190001234  ANANYA IYER  unknown        F',
      '',
    ].join('\n'),
  );
});

test('safeSegment: a hostile docType cannot leave the directory', () => {
  const cases: [string, string][] = [
    ['aadhaar', 'aadhaar'],
    ['pan', 'pan'],
    ['Driving Licence', 'driving-licence'],
    ['driving_licence', 'driving_licence'],
    ['../../etc/passwd', 'etc-passwd'],
    ['..', 'document'],
    ['.', 'document'],
    ['/', 'document'],
    ['a/b\\c', 'a-b-c'],
    ['.hidden', 'hidden'],
    ['C:\\Windows\\x', 'c-windows-x'],
    ['nul', 'nul-doc'],
    ['COM1', 'com1-doc'],
    ['आधार', 'document'],
    ['Élan', 'elan'],
    ['x\u0000y', 'x-y'],
    ['a'.repeat(300), 'a'.repeat(64)],
    ['', 'document'],
  ];
  for (const [input, expected] of cases) {
    const out = safeSegment(input);
    assert.equal(out, expected, JSON.stringify(input));
    assert.match(out, /^[a-z0-9][a-z0-9_-]*$/);
    assert.equal(path.basename(out), out);
  }
});

test('planDocumentFiles: every document gets its own files, collisions numbered', () => {
  const plans = planDocumentFiles([
    { docType: 'aadhaar' }, { docType: 'pan' }, { docType: 'aadhaar' }, { docType: 'aadhaar-2' }, { docType: '../pan' }, { docType: 'DL' },
  ]);
  assert.deepEqual(plans.map((p) => [p.pdf, p.xml]), [
    ['aadhaar.pdf', 'aadhaar.xml'],
    ['pan.pdf', 'pan.xml'],
    ['aadhaar-2.pdf', 'aadhaar-2.xml'],
    ['aadhaar-2-2.pdf', 'aadhaar-2-2.xml'],
    ['pan-2.pdf', 'pan-2.xml'],
    ['dl.pdf', 'dl.xml'],
  ]);
  assert.deepEqual(plans.map((p) => p.docType), ['aadhaar', 'pan', 'aadhaar', 'aadhaar-2', '../pan', 'DL']);
});

test('isSafeSessionId', () => {
  for (const ok of ['3f6c1b2a-0000-4000-8000-000000000000', 'abc', 'A_b-9']) assert.ok(isSafeSessionId(ok), ok);
  for (const bad of ['', '..', '../x', 'a/b', '-rf', '.x', 'a b', 'x'.repeat(200), 'a\nb']) assert.ok(!isSafeSessionId(bad), bad);
});

test('checkPdf and checkXml', () => {
  const b = (s: string) => Buffer.from(s, 'latin1');
  assert.deepEqual(checkPdf(b('%PDF-1.4\n...')), { ok: true });
  assert.deepEqual(checkPdf(b('\xef\xbb\xbf%PDF-1.7')), { ok: true });
  assert.ok(!checkPdf(b('<html>error</html>')).ok);
  assert.match((checkPdf(b('<html>error</html>')) as { reason: string }).reason, /does not start with %PDF-/);
  assert.ok(!checkPdf(b('')).ok);
  assert.ok(!checkPdf(b('%PDX-1.4')).ok);

  assert.deepEqual(checkXml(b('<?xml version="1.0"?>\n<a x="1"><b>t &amp; u</b><!-- c --><![CDATA[<x>]]></a>\n')), { ok: true });
  assert.deepEqual(checkXml(Buffer.from('\ufeff<Certificate><Name>\u0905</Name></Certificate>', 'utf8')), { ok: true });
  const bad: [string, RegExp][] = [
    ['<a><b></a>', /not well-formed/],
    ['<a>', /not well-formed/],
    ['<a x=1></a>', /not well-formed/],
    ['<a></a><b></b>', /not well-formed/],
    ['{"json": true}', /not XML/],
    ['', /empty/],
  ];
  for (const [text, why] of bad) {
    const result = checkXml(b(text));
    assert.ok(!result.ok, text);
    assert.match(result.reason, why, text);
  }
  assert.match((checkXml(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e])) as { reason: string }).reason, /UTF-8/);
});

test('classifyStatus', () => {
  const cases: [string, string][] = [
    ['Completed', 'completed'], ['COMPLETED', 'completed'], ['Pending', 'pending'], ['Initiated', 'pending'],
    ['InProgress', 'pending'], ['Denied', 'failed'], ['Rejected', 'failed'], ['Expired', 'failed'], ['', 'pending'],
  ];
  for (const [status, cls] of cases) assert.equal(classifyStatus(status), cls, status);
});

test('nextPollDelay: grows to the cap, jitter within bounds, never past the deadline', () => {
  const mid = () => 0.5;
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => nextPollDelay(n, 1e9, mid)), [1000, 1600, 2560, 4096, 6554, 10486, 15000, 15000, 15000]);
  assert.equal(nextPollDelay(1, 1e9, () => 0), 800);
  assert.equal(nextPollDelay(1, 1e9, () => 0.999999), 1200);
  assert.equal(nextPollDelay(10, 1e9, () => 0.999999), 18000);
  assert.equal(nextPollDelay(3, 700, mid), 700, 'clipped to what is left');
  assert.equal(nextPollDelay(3, -5, mid), 0);
  assert.equal(nextPollDelay(2, 1e9, mid, { ...DEFAULT_POLL_POLICY, initialMs: 100, factor: 2, jitter: 0 }), 200);
});

test('checkWebhookUrl', () => {
  const ok: [string, string][] = [
    ['https://hooks.example.com/vas/ok', 'https://hooks.example.com/vas/ok'],
    ['http://127.0.0.1:8787/hooks/x/success', 'http://127.0.0.1:8787/hooks/x/success'],
    [' https://EXAMPLE.com ', 'https://example.com/'],
  ];
  for (const [input, url] of ok) assert.deepEqual(checkWebhookUrl(input), { ok: true, url });
  const bad: [string, RegExp][] = [
    ['', /empty/],
    ['hooks.example.com/x', /not an absolute URL/],
    ['/relative/path', /not an absolute URL/],
    ['ftp://example.com/x', /http:\/\/ or https:\/\//],
    ['javascript:alert(1)', /http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /http:\/\/ or https:\/\//],
    ['https://user:pw@example.com/x', /user name or password/],
  ];
  for (const [input, why] of bad) {
    const result = checkWebhookUrl(input);
    assert.ok(!result.ok, input);
    assert.match(result.reason, why, input);
  }
});

test('decideHead: path first, then method, media type, declared size', () => {
  const paths = webhookPaths('s3cr3t-s3cr3t-s3cr3t');
  const head = (over: Partial<Parameters<typeof decideHead>[0]>) =>
    decideHead({ method: 'POST', path: paths.success, contentType: 'application/json', contentLength: 10, ...over }, paths);
  assert.deepEqual(head({}), { action: 'read', kind: 'success' });
  assert.deepEqual(head({ path: paths.failure }), { action: 'read', kind: 'failure' });
  assert.equal((head({ path: '/hooks/guess/success' }) as { status: number }).status, 404);
  assert.equal((head({ path: '/', method: 'GET' }) as { status: number }).status, 404);
  assert.equal((head({ path: `${paths.success}/` }) as { status: number }).status, 404);
  assert.equal((head({ method: 'GET' }) as { status: number }).status, 405);
  assert.equal((head({ contentType: 'text/plain' }) as { status: number }).status, 415);
  assert.equal((head({ contentType: undefined }) as { status: number }).status, 415);
  assert.equal((head({ contentLength: MAX_WEBHOOK_BODY_BYTES + 1 }) as { status: number }).status, 413);
  assert.deepEqual(head({ contentLength: MAX_WEBHOOK_BODY_BYTES }), { action: 'read', kind: 'success' });
  assert.deepEqual(head({ contentLength: undefined }), { action: 'read', kind: 'success' });
});

test('isJsonType', () => {
  for (const t of ['application/json', 'Application/JSON; charset=utf-8', 'application/cloudevents+json']) assert.ok(isJsonType(t), t);
  for (const t of [undefined, '', 'text/plain', 'text/json', 'application/jsonx', 'multipart/form-data']) assert.ok(!isJsonType(t), String(t));
});

test('parseWebhookBody: JSON objects only; same body, same digest', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const body = '{"event":"doclocker.success","sessionId":"abc","status":"Completed","extra":{"n":1}}';
  const a = parseWebhookBody('success', enc(body));
  assert.ok(a.ok);
  assert.equal(a.event.sessionId, 'abc');
  assert.equal(a.event.status, 'Completed');
  assert.equal(a.event.event, 'doclocker.success');
  assert.equal(a.event.payload, body);
  const b = parseWebhookBody('success', enc(body));
  assert.ok(b.ok && b.event.digest === a.event.digest);
  const c = parseWebhookBody('failure', enc(body));
  assert.ok(c.ok && c.event.digest !== a.event.digest, 'kind is part of the digest');
  const noSession = parseWebhookBody('failure', enc('{"status":"Denied"}'));
  assert.ok(noSession.ok && noSession.event.sessionId === null);
  for (const bad of ['', '{', '[]', '"text"', 'null', '42', '{"sessionId":42}', '{"sessionId":""}']) {
    const r = parseWebhookBody('success', enc(bad));
    assert.ok(!r.ok && r.status === 400, bad);
  }
  assert.ok(!parseWebhookBody('success', Uint8Array.from([0x7b, 0xff, 0x7d])).ok, 'not UTF-8');
});

test('DocsStore: sessions, callbacks once, listeners', (t) => {
  let clock = 1_000;
  const db = openDatabase(':memory:');
  t.after(() => db.close());
  const store = new DocsStore(db, () => clock);
  store.addSession({ sessionId: 's1', url: 'http://x/consent/s1', pinless: true, status: 'Pending', api: 'http://x' });
  clock += 10;
  store.addSession({ sessionId: 's2', url: 'http://x/consent/s2', pinless: false, status: 'Pending', api: null });
  assert.deepEqual(store.listSessions(10).map((s) => s.sessionId), ['s2', 's1']);
  assert.equal(store.listSessions(1).length, 1);

  const event = { kind: 'success', sessionId: 's1', status: 'Completed', digest: 'd1', payload: '{}' };
  assert.equal(store.recordWebhook(event).recorded, true);
  assert.equal(store.recordWebhook(event).recorded, false);
  assert.equal(store.webhookEvents().length, 1);
  assert.equal(store.getSession('s1')?.status, 'Completed');
  store.recordWebhook({ kind: 'failure', sessionId: 'elsewhere', status: null, digest: 'd2', payload: '{}' });
  assert.deepEqual(store.getSession('elsewhere')?.status, 'Failed');
  assert.equal(store.getSession('elsewhere')?.pinless, null, 'not started from this state');
  assert.deepEqual([...store.lastCallbackKinds(['s1', 's2', 'elsewhere'])], [['s1', 'success'], ['elsewhere', 'failure']]);

  clock += 10;
  store.recordFetch('s1', 'Completed', ['/d/s1/aadhaar.pdf']);
  store.recordFetch('s1', 'Completed', ['/d/s1/aadhaar.pdf', '/d/s1/pan.pdf']);
  const s1 = store.getSession('s1');
  assert.deepEqual(s1?.files, ['/d/s1/aadhaar.pdf', '/d/s1/pan.pdf']);
  assert.equal(s1?.fetchedAt, clock);
  assert.equal(s1?.pinless, true);

  store.saveListener({ listenUrl: 'http://127.0.0.1:1', publicUrl: 'https://pub.example', secret: 'sec', successUrl: 'S', failureUrl: 'F', pid: 7 });
  assert.equal(store.findListener('http://127.0.0.1:1')?.successUrl, 'S');
  assert.equal(store.findListener('https://pub.example')?.failureUrl, 'F');
  assert.equal(store.findListener('http://127.0.0.1:2'), undefined);
  store.markListenerStopped('http://127.0.0.1:1', 7);
  assert.equal(store.getListener('http://127.0.0.1:1')?.stoppedAt, clock);
});

test('saveDocuments: unknown and hostile docTypes are saved inside the directory; bad content is refused', async (t) => {
  const sbx = await sandbox(t);
  const client = createClient({ baseUrl: sbx.url, token: 'sandbox-token' });
  t.after(() => client.close());
  const init = await client.docInit({ pinlessVerification: true });
  await answerConsent(init.result.url, 'approve');
  const { result } = await client.docFetchStatus(init.result.sessionId);
  const [aadhaar, pan] = result.documents;
  assert.ok(aadhaar && pan);

  // A server that answers 200 with an HTML error page, as broken proxies do.
  const html = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Oops</body>'));
  await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => html.close(() => resolve())));
  const htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/doc`;

  const documents: DocumentInfo[] = [
    aadhaar,
    { ...pan, docType: 'drivingLicence' },
    { ...pan, docType: '../../escape' },
    { ...pan, docType: 'pan', xmlUrl: htmlUrl },
  ];
  const dir = path.join(tempDir(t), 'downloads');
  const report = await saveDocuments(client, { dir, sessionId: init.result.sessionId, documents });
  const sessionDir = path.join(dir, init.result.sessionId);
  assert.equal(report.directory, sessionDir);
  assert.deepEqual(fs.readdirSync(sessionDir).sort(), [
    'aadhaar.pdf', 'aadhaar.xml', 'drivinglicence.pdf', 'drivinglicence.xml', 'escape.pdf', 'escape.xml', 'pan.pdf',
  ]);
  assert.deepEqual(fs.readdirSync(path.dirname(dir)), ['downloads'], 'nothing escaped');
  assert.equal(report.failures.length, 1);
  assert.equal(report.failures[0]?.docType, 'pan');
  assert.equal(report.failures[0]?.format, 'xml');
  assert.match(report.failures[0]?.reason ?? '', /not well-formed XML/);
  for (const name of fs.readdirSync(sessionDir)) assert.equal(modeOf(path.join(sessionDir, name)), 0o600);
  assert.equal(modeOf(sessionDir), 0o700);
  assert.equal(modeOf(dir), 0o700);

  // Again: identical files are "unchanged"; nothing is rewritten.
  const again = await saveDocuments(client, { dir, sessionId: init.result.sessionId, documents: [aadhaar] });
  assert.deepEqual(again.files.map((f) => f.state), ['unchanged', 'unchanged']);
  assert.equal(fs.readdirSync(sessionDir).filter((f) => f.endsWith('.part')).length, 0, 'no temporary files left');
});
