import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { request } from 'undici';
import {
  DocFetchResultSchema,
  DocInitResultSchema,
  EnvelopeErrorSchema,
  MESSAGES,
  OPS,
  successEnvelope,
  type DocFetchResult,
} from '../src/api/schemas.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';

const InitEnvelope = successEnvelope(DocInitResultSchema);
const FetchEnvelope = successEnvelope(DocFetchResultSchema);

async function start(t: TestContext, options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  t.after(() => sandbox.close());
  return sandbox;
}

async function api(sandbox: Sandbox, op: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await request(`${sandbox.url}/vas-api/v1/${op}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

async function init(sandbox: Sandbox, body: Record<string, unknown>) {
  const answer = await api(sandbox, OPS.docInit, body);
  assert.equal(answer.status, 200);
  return InitEnvelope.parse(answer.json).body;
}

async function fetchStatus(sandbox: Sandbox, sessionId: string): Promise<DocFetchResult> {
  const answer = await api(sandbox, OPS.docFetch, { sessionId });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  return FetchEnvelope.parse(answer.json).body;
}

async function get(url: string): Promise<{ status: number; type: string; body: Buffer }> {
  const res = await request(url);
  return { status: res.statusCode, type: String(res.headers['content-type']), body: Buffer.from(await res.body.arrayBuffer()) };
}

async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

interface Delivery {
  path: string;
  body: Record<string, unknown>;
}

/** A webhook receiver on 127.0.0.1:0 that resolves `next()` with each delivery. */
async function receiver(t: TestContext) {
  const deliveries: Delivery[] = [];
  const waiting: ((delivery: Delivery) => void)[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> };
      res.writeHead(204).end();
      const waiter = waiting.shift();
      if (waiter === undefined) deliveries.push(delivery);
      else waiter(delivery);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const next = (): Promise<Delivery> => {
    const ready = deliveries.shift();
    return ready !== undefined ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
  };
  return { base, next };
}

/** Checks the PDF's cross-reference table: every offset must point at its object. */
function assertValidPdf(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  assert.ok(text.startsWith('%PDF-1.4'));
  assert.ok(text.trimEnd().endsWith('%%EOF'));
  const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(text)?.[1]);
  assert.equal(text.slice(startxref, startxref + 4), 'xref');
  const count = Number(/^xref\n0 (\d+)\n/.exec(text.slice(startxref))?.[1]);
  const entries = text.slice(startxref).split('\n').slice(2, 2 + count);
  assert.equal(entries.length, count);
  entries.slice(1).forEach((entry, index) => {
    assert.equal(entry.length, 19); // 20 bytes with the newline
    const offset = Number(entry.slice(0, 10));
    assert.equal(text.slice(offset, offset + `${index + 1} 0 obj`.length), `${index + 1} 0 obj`);
  });
  const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)?.[1]);
  const streamStart = text.indexOf('stream\n') + 'stream\n'.length;
  assert.equal(text.slice(streamStart + length, streamStart + length + '\nendstream'.length), '\nendstream');
  return text;
}

test('doclocker-init validates its body', async (t) => {
  const sandbox = await start(t);
  const bad = async (body: unknown) => {
    const answer = await api(sandbox, OPS.docInit, body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.deepEqual(EnvelopeErrorSchema.parse(answer.json), { ok: false, responseCode: 400, message: MESSAGES.invalidRequest });
  };
  await bad('{oops');
  await bad({});
  await bad({ pinlessVerification: 'yes' });
  await bad({ pinlessVerification: true, successWebhookUrl: 'ftp://example.com/hook' });
  await bad({ pinlessVerification: true, failureWebhookUrl: '/relative' });
  const ok = await init(sandbox, { pinlessVerification: true, successWebhookUrl: 'https://example.com/hook' });
  assert.equal(ok.url, `${sandbox.url}/consent/${ok.sessionId}`);
});

test('doclocker-fetch-status errors', async (t) => {
  const sandbox = await start(t);
  const unreadable = await api(sandbox, OPS.docFetch, 'nope{');
  assert.equal(unreadable.status, 400);
  assert.equal(EnvelopeErrorSchema.parse(unreadable.json).message, MESSAGES.badBody);
  const unknown = await api(sandbox, OPS.docFetch, { sessionId: '00000000-0000-4000-8000-000000000000' });
  assert.equal(unknown.status, 400);
  assert.equal(EnvelopeErrorSchema.parse(unknown.json).message, MESSAGES.sessionExpired);
});

test('approve: consent page, documents, PDF and XML files, success webhook', async (t) => {
  const hooks = await receiver(t);
  const sandbox = await start(t);
  const session = await init(sandbox, {
    pinlessVerification: false,
    successWebhookUrl: `${hooks.base}/ok`,
    failureWebhookUrl: `${hooks.base}/fail`,
  });
  assert.deepEqual(await fetchStatus(sandbox, session.sessionId), { sessionId: session.sessionId, status: 'Pending', documents: [] });

  const page = await get(session.url);
  assert.equal(page.status, 200);
  assert.match(page.type, /text\/html/);
  const html = page.body.toString('utf8');
  assert.match(html, /<title>[^<]+<\/title>/);
  assert.match(html, /<button id="approve"[^>]*>Approve<\/button>/);
  assert.match(html, /<button id="deny"[^>]*>Deny<\/button>/);
  assert.match(html, /Aadhaar/);
  assert.match(html, /PAN/);
  assert.match(html, /name="pin"/);
  assert.ok(html.includes(`action="/consent/${session.sessionId}/approve"`));

  const approved = await postForm(`${session.url}/approve`, { pin: '123456' });
  assert.equal(approved.status, 200);
  assert.match(approved.text, /data-status="Completed"/);

  const delivery = await hooks.next();
  assert.equal(delivery.path, '/ok');
  assert.equal(delivery.body['event'], 'doclocker.success');
  assert.equal(delivery.body['sessionId'], session.sessionId);
  assert.equal(delivery.body['status'], 'Completed');
  assert.ok(!Number.isNaN(Date.parse(String(delivery.body['timestamp']))));

  const done = await fetchStatus(sandbox, session.sessionId);
  assert.equal(done.status, 'Completed');
  assert.deepEqual(done.documents.map((doc) => doc.docType), ['aadhaar', 'pan']);
  const [aadhaar, pan] = done.documents;
  assert.ok(aadhaar !== undefined && pan !== undefined);
  assert.match(aadhaar.idNumber, /^x{8}\d{4}$/);
  assert.match(pan.idNumber, /^[A-Z]{3}P[A-Z]\d{4}[A-Z]$/);
  for (const doc of done.documents) {
    assert.match(doc.dob, /^(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])(19|20)\d\d$/);
    assert.match(doc.gender, /^[MF]$/);
    assert.ok(doc.name.length > 0);
    assert.ok(doc.pdfUrl.startsWith(`${sandbox.url}/files/`));

    const pdf = await get(doc.pdfUrl);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.type, 'application/pdf');
    const text = assertValidPdf(pdf.body);
    assert.ok(text.includes(doc.name), 'PDF shows the name');
    assert.ok(text.includes(doc.idNumber), 'PDF shows the id number');

    const xml = await get(doc.xmlUrl);
    assert.equal(xml.status, 200);
    assert.match(xml.type, /application\/xml/);
    const body = xml.body.toString('utf8');
    assert.match(body, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<Certificate [^>]*>[\s\S]*<\/Certificate>\n$/);
    assert.ok(body.includes(`<Name>${doc.name.replace(/&/g, '&amp;')}</Name>`));
    assert.ok(body.includes(`<IdNumber>${doc.idNumber}</IdNumber>`));
  }
  // File URLs are unguessable: a wrong token is not found.
  assert.equal((await get(`${sandbox.url}/files/guess/aadhaar.pdf`)).status, 404);

  // A decided session cannot be decided again.
  assert.equal((await postForm(`${session.url}/deny`, {})).status, 409);
  assert.equal(sandbox.stats().requests['webhook'], 1);
});

test('deny: Denied without documents and a failure webhook', async (t) => {
  const hooks = await receiver(t);
  const sandbox = await start(t);
  const session = await init(sandbox, { pinlessVerification: true, failureWebhookUrl: `${hooks.base}/fail` });
  const page = (await get(session.url)).body.toString('utf8');
  assert.doesNotMatch(page, /name="pin"/);
  const denied = await postForm(`${session.url}/deny`, {});
  assert.equal(denied.status, 200);
  assert.match(denied.text, /data-status="Denied"/);
  const delivery = await hooks.next();
  assert.equal(delivery.path, '/fail');
  assert.equal(delivery.body['event'], 'doclocker.failure');
  assert.equal(delivery.body['status'], 'Denied');
  assert.equal(delivery.body['reason'], 'User denied consent');
  assert.equal(delivery.body['sessionId'], session.sessionId);
  const status = await fetchStatus(sandbox, session.sessionId);
  assert.equal(status.status, 'Denied');
  assert.deepEqual(status.documents, []);
});

test('autoAuthorizeMs completes sessions by themselves', async (t) => {
  const hooks = await receiver(t);
  const sandbox = await start(t, { autoAuthorizeMs: 30 });
  const session = await init(sandbox, { pinlessVerification: true, successWebhookUrl: `${hooks.base}/ok` });
  assert.equal((await hooks.next()).body['sessionId'], session.sessionId);
  const status = await fetchStatus(sandbox, session.sessionId);
  assert.equal(status.status, 'Completed');
  assert.equal(status.documents.length, 2);
});

test('sessions expire after sessionTtlSeconds', async (t) => {
  let now = Date.UTC(2024, 2, 1, 10, 0, 0);
  const sandbox = await start(t, { sessionTtlSeconds: 60, now: () => now });
  const session = await init(sandbox, { pinlessVerification: true });
  assert.equal((await postForm(`${session.url}/approve`, {})).status, 200);
  const completed = await fetchStatus(sandbox, session.sessionId);
  const pdfUrl = completed.documents[0]?.pdfUrl ?? '';
  assert.equal((await get(pdfUrl)).status, 200);

  now += 60_000;
  const expired = await api(sandbox, OPS.docFetch, { sessionId: session.sessionId });
  assert.equal(expired.status, 400);
  assert.equal(EnvelopeErrorSchema.parse(expired.json).message, MESSAGES.sessionExpired);
  assert.equal((await get(session.url)).status, 404);
  assert.equal((await get(pdfUrl)).status, 404);
});

test('close() clears a pending auto-authorize timer and an undeliverable webhook', async () => {
  // A receiver that accepts but never answers keeps the webhook request open.
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
  const sandbox = await startSandbox({ autoAuthorizeMs: 60_000 });
  await init(sandbox, { pinlessVerification: true });
  const session = await init(sandbox, { pinlessVerification: true, successWebhookUrl: hookUrl });
  await postForm(`${session.url}/approve`, {});
  await sandbox.close();
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});
