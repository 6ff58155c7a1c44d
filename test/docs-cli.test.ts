/**
 * The document-locker flow end to end: the real CLI (`docs init`, `docs fetch`, `docs listen`)
 * as child processes against a real sandbox on port 0, consent answered over HTTP through the
 * sandbox's own consent page.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { checkXml } from '../src/docs/validate.js';
import { openDatabase } from '../src/state/db.js';
import { DocsStore } from '../src/state/docs-store.js';
import { answerConsent, cliEnv, modeOf, runCli, sandbox, startListener, tempDir } from './docs-helpers.js';

interface InitJson {
  sessionId: string;
  url: string;
  pinless: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The state file as the CLI left it (read-only use; closed after the test). */
function readState(t: TestContext, dir: string): DocsStore {
  const db = openDatabase(path.join(dir, 'state.sqlite'));
  t.after(() => db.close());
  return new DocsStore(db);
}

async function waitUntil(check: () => boolean, describe: () => string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not reached within ${timeoutMs} ms:\n${describe()}`);
    await delay(100);
  }
}

function assertRealFiles(dir: string, sessionId: string): void {
  const sessionDir = path.join(dir, sessionId);
  assert.equal(modeOf(sessionDir), 0o700, 'session directory is 0700');
  assert.deepEqual(fs.readdirSync(sessionDir).sort(), ['aadhaar.pdf', 'aadhaar.xml', 'pan.pdf', 'pan.xml']);
  for (const name of fs.readdirSync(sessionDir)) {
    const file = path.join(sessionDir, name);
    assert.equal(modeOf(file), 0o600, `${name} is 0600`);
    const bytes = fs.readFileSync(file);
    if (name.endsWith('.pdf')) {
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', `${name} is a PDF`);
      assert.match(bytes.toString('latin1'), /%%EOF\s*$/);
    } else {
      assert.deepEqual(checkXml(bytes), { ok: true }, `${name} is well-formed XML`);
    }
  }
}

describe('docs CLI against the sandbox', { concurrency: 4 }, () => {
  test('whole flow: init with the listener URLs → approve → success callback → fetched and saved', async (t) => {
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const downloads = path.join(dir, 'kyc');
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const listener = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], env);
    assert.match(listener.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(listener.successUrl, new RegExp(`^${listener.baseUrl}/hooks/[A-Za-z0-9_-]{32}/success$`));
    assert.equal(listener.failureUrl, listener.successUrl.replace(/success$/, 'failure'));

    const init = await runCli(['docs', 'init', '--listen', listener.baseUrl, '--base-url', sbx.url, '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const session = JSON.parse(init.stdout) as InitJson;
    assert.match(session.sessionId, UUID);
    assert.equal(session.pinless, true);
    assert.equal(session.url, `${sbx.url}/consent/${session.sessionId}`);

    const consent = await answerConsent(session.url, 'approve');
    assert.equal(consent.status, 200);
    assert.match(consent.html, /data-status="Completed"/);

    await listener.waitForLine(new RegExp(`success ${session.sessionId} Completed$`));
    const fetched = await listener.waitForLine(new RegExp(`fetched ${session.sessionId} 2 document\\(s\\), 4 file\\(s\\)`));
    assert.doesNotMatch(fetched, /failed/);
    assert.equal(modeOf(downloads), 0o700);
    assertRealFiles(downloads, session.sessionId);
    assert.equal(sbx.stats().requests['webhook'], 1);

    // The state file lists the session with its callback and files (no API call needed).
    const list = await runCli(['docs', 'fetch', '--json'], env);
    assert.equal(list.code, 0, list.stderr);
    const rows = JSON.parse(list.stdout) as { sessionId: string; status: string; lastCallback: string; files: string[]; fetchedAt: string }[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.sessionId, session.sessionId);
    assert.equal(rows[0]?.status, 'Completed');
    assert.equal(rows[0]?.lastCallback, 'success');
    assert.equal(rows[0]?.files.length, 4);
    assert.ok(rows[0]?.fetchedAt);

    // Fetching again is harmless: same bytes are "already saved", and the table shows the documents.
    const again = await runCli(['docs', 'fetch', session.sessionId, '--download', downloads, '--base-url', sbx.url], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^DOC TYPE +ID NUMBER +NAME +DATE OF BIRTH +GENDER$/m);
    assert.match(again.stdout, /^aadhaar +xxxxxxxx\d{4} +\S.* +\d{4}-\d{2}-\d{2} +[MF]$/m);
    assert.match(again.stdout, /^pan +[A-Z]{5}\d{4}[A-Z] /m);
    assert.equal((again.stdout.match(/^already saved: /gm) ?? []).length, 4);

    // A file that changed on disk is never overwritten silently.
    const aadhaarPdf = path.join(downloads, session.sessionId, 'aadhaar.pdf');
    fs.writeFileSync(aadhaarPdf, '%PDF-1.4 edited by someone\n');
    const clash = await runCli(['docs', 'fetch', session.sessionId, '--download', downloads, '--base-url', sbx.url], env);
    assert.equal(clash.code, 1);
    assert.match(clash.stderr, /aadhaar\.pdf already exists with different content: not overwritten/);
    assert.equal(fs.readFileSync(aadhaarPdf, 'utf8'), '%PDF-1.4 edited by someone\n');

    // Personal data stays out of the log lines; the token appears nowhere.
    const name = /^aadhaar +\S+ +(.+?) {2,}/m.exec(again.stdout)?.[1];
    assert.ok(name);
    for (const text of [listener.stderr(), listener.stdout(), again.stderr, init.stderr, init.stdout, clash.stderr]) {
      assert.ok(!text.includes(name), 'no name in logs or listener output');
      assert.ok(!text.includes('sandbox-token'));
    }
    assert.equal(await listener.stop(), 0);
  });

  test('deny: the failure callback is recorded and fetch reports it', async (t) => {
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const listener = await startListener(t, [], env);
    const init = await runCli(['docs', 'init', '--pin', '--listen', listener.baseUrl, '--base-url', sbx.url, '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const session = JSON.parse(init.stdout) as InitJson;
    assert.equal(session.pinless, false);

    const consent = await answerConsent(session.url, 'deny');
    assert.match(consent.html, /data-status="Denied"/);
    await listener.waitForLine(new RegExp(`failure ${session.sessionId} Denied$`));

    const fetch = await runCli(['docs', 'fetch', session.sessionId, '--base-url', sbx.url, '--download', path.join(dir, 'kyc')], env);
    assert.equal(fetch.code, 1);
    assert.match(fetch.stdout, /: Denied$/m);
    assert.match(fetch.stderr, /ended as Denied \(failure callback received \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST\): no documents were shared\. Start a new session with `vas-verify docs init`/);
    assert.ok(!fs.existsSync(path.join(dir, 'kyc')), 'nothing downloaded');

    const list = await runCli(['docs', 'fetch'], env);
    assert.match(list.stdout, new RegExp(`^${session.sessionId} +\\S+ +Denied +failure +- +0$`, 'm'));
    assert.equal(await listener.stop(), 0);
  });

  test('a success callback whose fetch failed is fetched again: on a repeated delivery, and by the next listener at its start', async (t) => {
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const downloads = path.join(dir, 'kyc');
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const first = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], env);
    // A file where the directory is to go: every fetch of the first listener fails.
    fs.writeFileSync(downloads, 'not a directory');
    const sessions: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const init = await runCli(['docs', 'init', '--listen', first.baseUrl, '--base-url', sbx.url, '--json'], env);
      assert.equal(init.code, 0, init.stderr);
      const session = JSON.parse(init.stdout) as InitJson;
      sessions.push(session.sessionId);
      assert.equal((await answerConsent(session.url, 'approve')).status, 200);
      await first.waitForLine(new RegExp(`success ${session.sessionId} Completed$`));
    }
    const [redelivered, left] = sessions as [string, string];
    await waitUntil(() => sessions.every((id) => first.stderr().includes(`fetch of session ${id} failed`)), first.stderr);

    // The sender delivers the first callback again, once the directory is usable: fetched now.
    fs.rmSync(downloads);
    const payload = readState(t, dir).webhookEvents(redelivered)[0]!.payload;
    const again = await fetch(first.successUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
    assert.deepEqual(await again.json(), { ok: true, duplicate: true });
    await first.waitForLine(new RegExp(`fetched ${redelivered} 2 document\\(s\\), 4 file\\(s\\)`));
    assert.equal(await first.stop(), 0);

    // The next listener on the same state fetches the one left, and only it.
    const fetchesBefore = sbx.stats().requests['doclocker-fetch-status'] ?? 0;
    const second = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], env);
    await second.waitForLine(new RegExp(`fetched ${left} 2 document\\(s\\), 4 file\\(s\\)`));
    assert.match(second.stderr(), /fetching 1 session\(s\) whose success callback was recorded but whose documents were not saved/);
    assert.equal(await second.stop(), 0);
    assert.equal((sbx.stats().requests['doclocker-fetch-status'] ?? 0) - fetchesBefore, 1, 'one fetch: the session left');
    assert.doesNotMatch(second.stdout(), new RegExp(redelivered));
    for (const id of sessions) assertRealFiles(downloads, id);
    const state = readState(t, dir);
    for (const id of sessions) assert.equal(state.getSession(id)?.files.length, 4, `${id} recorded as fetched`);
  });

  test('a fetch that saved only some documents is not recorded as done: the next listener fetches the session again', async (t) => {
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const downloads = path.join(dir, 'kyc');
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const first = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], env);
    const init = await runCli(['docs', 'init', '--listen', first.baseUrl, '--base-url', sbx.url, '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const session = JSON.parse(init.stdout) as InitJson;
    // A folder where pan.xml is to go: that one file cannot be saved, the other three are.
    fs.mkdirSync(path.join(downloads, session.sessionId, 'pan.xml'), { recursive: true });
    assert.equal((await answerConsent(session.url, 'approve')).status, 200);
    await first.waitForLine(new RegExp(`fetched ${session.sessionId} 2 document\\(s\\), 3 file\\(s\\) in .*, 1 failed`));
    assert.equal(await first.stop(), 0);
    assert.equal(readState(t, dir).getSession(session.sessionId)?.fetchedAt, null, 'not recorded as fetched');

    fs.rmSync(path.join(downloads, session.sessionId, 'pan.xml'), { recursive: true });
    const second = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], env);
    await second.waitForLine(new RegExp(`fetched ${session.sessionId} 2 document\\(s\\), 4 file\\(s\\)`));
    assert.equal(await second.stop(), 0);
    assertRealFiles(downloads, session.sessionId);
    assert.notEqual(readState(t, dir).getSession(session.sessionId)?.fetchedAt, null);
  });

  test('a --fetch listener catches up the sessions of the last day only, not those a listener without --fetch recorded long ago', async (t) => {
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const downloads = path.join(dir, 'kyc');
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const plain = await startListener(t, ['--base-url', sbx.url], env);
    const init = await runCli(['docs', 'init', '--listen', plain.baseUrl, '--base-url', sbx.url, '--json'], env);
    const session = JSON.parse(init.stdout) as InitJson;
    assert.equal((await answerConsent(session.url, 'approve')).status, 200);
    await plain.waitForLine(new RegExp(`success ${session.sessionId} Completed$`));
    assert.equal(await plain.stop(), 0);

    // Two days later (this machine's clock moved on), a listener with --fetch starts: nothing of then is fetched.
    const fetchesBefore = sbx.stats().requests['doclocker-fetch-status'] ?? 0;
    const later = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], cliEnv(path.join(dir, 'state.sqlite'), { VAS_TEST_CLOCK_OFFSET_MS: String(2 * 86_400_000) }));
    assert.equal(await later.stop(), 0);
    assert.equal(sbx.stats().requests['doclocker-fetch-status'] ?? 0, fetchesBefore);
    assert.doesNotMatch(later.stderr(), /fetching \d+ session/);
    assert.equal(fs.existsSync(path.join(downloads, session.sessionId)), false);

    // The same day, it is fetched.
    const sameDay = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], env);
    await sameDay.waitForLine(new RegExp(`fetched ${session.sessionId} 2 document\\(s\\), 4 file\\(s\\)`));
    assert.equal(await sameDay.stop(), 0);
  });

  test('an expired session says to start a new one (exit 1)', async (t) => {
    let offset = 0;
    const sbx = await sandbox(t, { sessionTtlSeconds: 600, now: () => Date.now() + offset });
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const init = await runCli(['docs', 'init', '--base-url', sbx.url], env);
    assert.equal(init.code, 0, init.stderr);
    const sessionId = /^session id: (\S+)$/m.exec(init.stdout)?.[1];
    assert.ok(sessionId);
    assert.match(init.stdout, new RegExp(`^send the user to: ${sbx.url}/consent/${sessionId}$`, 'm'));

    offset = 11 * 60_000;
    const fetch = await runCli(['docs', 'fetch', sessionId, '--wait', '--base-url', sbx.url], env);
    assert.equal(fetch.code, 1);
    assert.match(fetch.stderr, /has expired or is not known to the API \("sessionId expired or invalid"\): start a new session with `vas-verify docs init` \(HTTP 400, request id sbx-/);
    const list = await runCli(['docs', 'fetch'], env);
    assert.match(list.stdout, new RegExp(`^${sessionId} +\\S+ +Expired `, 'm'));
  });

  test('fetch --wait polls until the session completes (sandbox auto-authorize)', async (t) => {
    const sbx = await sandbox(t, { autoAuthorizeMs: 3000 });
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const init = await runCli(['docs', 'init', '--base-url', sbx.url, '--json'], env);
    const { sessionId } = JSON.parse(init.stdout) as InitJson;
    const downloads = path.join(dir, 'out');
    const fetch = await runCli(['docs', 'fetch', sessionId, '--wait', '--timeout', '1m', '--download', downloads, '--json', '--base-url', sbx.url], env);
    assert.equal(fetch.code, 0, fetch.stderr);
    // Whether the first poll still saw Pending depends on how fast the CLI started; the
    // deterministic check of waiting is in the next test.
    if ((sbx.stats().requests['doclocker-fetch-status'] ?? 0) >= 2) assert.match(fetch.stderr, /is Pending: waiting for the user/);
    const out = JSON.parse(fetch.stdout) as {
      status: string;
      documents: { docType: string; idNumber: string; dob: string; gender: string }[];
      files: { path: string; state: string }[];
      failures: unknown[];
    };
    assert.equal(out.status, 'Completed');
    assert.deepEqual(out.documents.map((d) => d.docType), ['aadhaar', 'pan']);
    assert.match(out.documents[0]?.idNumber ?? '', /^x{8}\d{4}$/, 'Aadhaar stays masked');
    assert.match(out.documents[0]?.dob ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(out.files.length, 4);
    assert.ok(out.files.every((f) => f.state === 'saved'));
    assert.deepEqual(out.failures, []);
    assertRealFiles(downloads, sessionId);
  });

  test('fetch --wait with a --timeout longer than a timer can hold waits instead of failing as a bug', async (t) => {
    const sbx = await sandbox(t, { autoAuthorizeMs: 500 });
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const init = await runCli(['docs', 'init', '--base-url', sbx.url, '--json'], env);
    const { sessionId } = JSON.parse(init.stdout) as InitJson;
    for (const timeout of ['60d', '100000d']) {
      const fetch = await runCli(['docs', 'fetch', sessionId, '--wait', '--timeout', timeout, '--base-url', sbx.url], env);
      assert.equal(fetch.code, 0, fetch.stderr);
      assert.match(fetch.stdout, /: Completed, 2 document\(s\)/);
      assert.doesNotMatch(fetch.stderr, /bug|internal error/);
    }
  });

  test('fetch before completion: exit 3 without --wait, and when --timeout is reached', async (t) => {
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const init = await runCli(['docs', 'init', '--base-url', sbx.url, '--json'], env);
    const { sessionId } = JSON.parse(init.stdout) as InitJson;

    const once = await runCli(['docs', 'fetch', sessionId, '--base-url', sbx.url], env);
    assert.equal(once.code, 3);
    assert.match(once.stdout, /: Pending \(no documents yet\)/);
    assert.match(once.stderr, new RegExp(`Wait for it with: vas-verify docs fetch ${sessionId} --wait`));

    const timed = await runCli(['docs', 'fetch', sessionId, '--wait', '--timeout', '2s', '--base-url', sbx.url], env);
    assert.equal(timed.code, 3, timed.stderr);
    assert.match(timed.stderr, new RegExp(`gave up after 2s: session ${sessionId} is still Pending`));
    assert.equal(timed.stdout, '');

    // --wait keeps polling while Pending and returns once the user approves.
    // Approve only once the first poll has been answered (Pending): nothing else talks to this sandbox.
    const answeredBefore = sbx.stats().responses['200'] ?? 0;
    const waiting = runCli(['docs', 'fetch', sessionId, '--wait', '--timeout', '1m', '--base-url', sbx.url], env);
    for (let waited = 0; (sbx.stats().responses['200'] ?? 0) === answeredBefore; waited += 50) {
      assert.ok(waited < 30_000, 'the waiting fetch polled within 30 s');
      await delay(50);
    }
    await answerConsent(`${sbx.url}/consent/${sessionId}`, 'approve');
    const waited = await waiting;
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stderr, /is Pending: waiting for the user \(up to 1m\)/);
    assert.match(waited.stdout, /: Completed, 2 document\(s\)/);
  });

  test('webhook receiver: size limit, JSON only, secret paths, duplicates recorded once', async (t) => {
    const dir = tempDir(t);
    const state = path.join(dir, 'state.sqlite');
    const listener = await startListener(t, [], cliEnv(state));
    const post = async (url: string, body: NonNullable<RequestInit['body']>, type: string | null = 'application/json', init: RequestInit = {}) => {
      // null: no Content-Type of ours (fetch then labels a string body text/plain).
      const res = await fetch(url, { method: 'POST', body, headers: type === null ? {} : { 'content-type': type }, ...init });
      return { status: res.status, json: (await res.json()) as { ok: boolean; duplicate?: boolean; error?: string } };
    };
    const payload = JSON.stringify({ event: 'doclocker.success', sessionId: 'c0ffee00-1111-4000-8000-feedfacecafe', status: 'Completed', timestamp: '2024-05-01T10:00:00Z' });

    // Oversized: declared, and chunked with no length.
    const big = JSON.stringify({ sessionId: 'x', pad: 'a'.repeat(70 * 1024) });
    assert.equal((await post(listener.successUrl, big)).status, 413);
    const chunks = [big.slice(0, 40_000), big.slice(40_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const chunked = await post(listener.successUrl, stream, 'application/json', { duplex: 'half' } as RequestInit);
    assert.equal(chunked.status, 413);

    // Not JSON, no type, malformed, not an object, a bad sessionId.
    assert.equal((await post(listener.successUrl, payload, 'text/plain')).status, 415);
    assert.equal((await post(listener.successUrl, payload, null)).status, 415);
    assert.equal((await post(listener.successUrl, new Blob([payload]), null)).status, 415);
    assert.equal((await post(listener.successUrl, '{"sessionId": "abc",')).status, 400);
    assert.equal((await post(listener.successUrl, '[1,2]')).status, 400);
    assert.equal((await post(listener.failureUrl, '{"sessionId": 42}')).status, 400);

    // Wrong paths and methods.
    const wrongSecret = listener.successUrl.replace(/\/hooks\/[^/]+\//, '/hooks/not-the-secret-at-all-0000000000/');
    assert.equal((await post(wrongSecret, payload)).status, 404);
    assert.equal((await post(`${listener.baseUrl}/`, payload)).status, 404);
    assert.equal((await post(`${listener.successUrl}/extra`, payload)).status, 404);
    assert.equal((await fetch(listener.successUrl)).status, 405);

    // A repeated delivery: acknowledged both times, recorded once, printed once.
    const first = await post(listener.successUrl, payload, 'application/json; charset=utf-8');
    assert.deepEqual([first.status, first.json], [200, { ok: true, duplicate: false }]);
    const second = await post(listener.successUrl, payload);
    assert.deepEqual([second.status, second.json], [200, { ok: true, duplicate: true }]);
    await listener.waitForLine(/success c0ffee00-1111-4000-8000-feedfacecafe Completed$/);
    // The same body on the other path is another event.
    assert.equal((await post(listener.failureUrl, payload)).json.duplicate, false);
    await listener.waitForLine(/failure c0ffee00-1111-4000-8000-feedfacecafe Completed$/);
    assert.equal(await listener.stop(), 0);

    const eventLines = listener.stdout().split('\n').filter((l) => /c0ffee00/.test(l));
    assert.equal(eventLines.length, 2, listener.stdout());
    assert.match(listener.stderr(), /repeated success callback for session c0ffee00-1111-4000-8000-feedfacecafe: already recorded/);
    const db = openDatabase(state);
    t.after(() => db.close());
    const events = new DocsStore(db).webhookEvents('c0ffee00-1111-4000-8000-feedfacecafe');
    assert.deepEqual(events.map((e) => e.kind), ['success', 'failure']);
    assert.equal(events[0]?.payload, payload);
    assert.equal(new DocsStore(db).webhookEvents().length, 2, 'rejected requests are not recorded');
  });

  test('behind --public-url with a path, callbacks arrive whether the proxy passes the path on or strips it', async (t) => {
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const listener = await startListener(t, ['--public-url', 'https://hooks.example.com/vas/'], env);
    assert.match(listener.successUrl, /^https:\/\/hooks\.example\.com\/vas\/hooks\/[A-Za-z0-9_-]{32}\/success$/);
    const secretPath = new URL(listener.successUrl).pathname.slice('/vas'.length);
    const post = (urlPath: string, sessionId: string) =>
      fetch(`${listener.baseUrl}${urlPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, status: 'Completed' }) });
    assert.equal((await post(`/vas${secretPath}`, 'c0ffee00-0000-4000-8000-000000000001')).status, 200, 'the path passed on');
    assert.equal((await post(secretPath, 'c0ffee00-0000-4000-8000-000000000002')).status, 200, 'the path stripped');
    assert.equal((await post(`/other${secretPath}`, 'c0ffee00-0000-4000-8000-000000000003')).status, 404);
    assert.equal((await post('/vas/hooks/not-the-secret/success', 'c0ffee00-0000-4000-8000-000000000004')).status, 404);
    await listener.waitForLine(/success c0ffee00-0000-4000-8000-000000000002 Completed$/);
    assert.match(listener.stdout(), /success c0ffee00-0000-4000-8000-000000000001 Completed$/m);
    assert.equal(await listener.stop(), 0);
  });

  test('bad input is refused before any call (exit 2)', async (t) => {
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const cases: [string[], RegExp][] = [
      [['docs', 'init', '--success-webhook', 'hooks.example.com/ok'], /--success-webhook "hooks\.example\.com\/ok" is not usable: it is not an absolute URL/],
      [['docs', 'init', '--failure-webhook', 'ftp://example.com/x'], /--failure-webhook .* must start with http:\/\/ or https:\/\//],
      [['docs', 'init', '--listen', 'http://127.0.0.1:9'], /no `docs listen` at http:\/\/127\.0\.0\.1:9 is recorded in/],
      [['docs', 'fetch', '../../etc/passwd'], /is not a session id/],
      // A mistyped or cut id (the API's ids are UUIDs) is the user's input, not an expired session.
      [['docs', 'fetch', 'not-a-session'], /"not-a-session" is not a session id: use the id printed by `vas-verify docs init` \(a UUID\)/],
      [['docs', 'fetch', '3f6c0000-0000-4000-8000-00000000000'], /is not a session id/],
      [['docs', 'fetch', '3f6c0000-0000-4000-8000-000000000000', '--timeout', '5m'], /--timeout only applies with --wait/],
      [['docs', 'fetch', '3f6c0000-0000-4000-8000-000000000000', '--wait', '--timeout', 'soon'], /--timeout: "soon" is not a duration/],
      [['docs', 'listen', '--fetch'], /--fetch needs --download DIR/],
      // Every interface is no address the API can call back: refused before anything binds.
      [['docs', 'listen', '--host', '0.0.0.0', '--port', '0'], /--host 0\.0\.0\.0 listens on every interface, but the API cannot call back 0\.0\.0\.0: add --public-url/],
      [['docs', 'listen', '--host', '::', '--port', '0'], /--host :: listens on every interface.*add --public-url/],
      // Longer than a timer can hold: it used to fire at once and fail every request.
      [['docs', 'init', '--deadline', '30d'], /--deadline "30d" is longer than 24 days.*0 for none/],
      [['docs', 'fetch', '3f6c0000-0000-4000-8000-000000000000', '--deadline', '100000d'], /--deadline "100000d" is longer than 24 days/],
    ];
    // A download directory the files cannot go in: said now, not after the user has approved.
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    cases.push(
      [['docs', 'fetch', '3f6c0000-0000-4000-8000-000000000000', '--wait', '--download', path.join(dir, 'a-file', 'kyc')], /cannot create download directory .*a-file\/kyc/],
      [['docs', 'fetch', '3f6c0000-0000-4000-8000-000000000000', '--download', path.join(dir, 'a-file')], /download directory .*a-file exists and is not a directory|cannot create download directory/],
      [['docs', 'listen', '--fetch', '--download', path.join(dir, 'a-file')], /download directory .*a-file exists and is not a directory|cannot create download directory/],
    );
    const results = await Promise.all(cases.map(([args]) => runCli([...args, '--base-url', sbx.url], env, 60_000)));
    results.forEach((result, i) => {
      assert.equal(result.code, 2, `${cases[i]?.[0].join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, cases[i]![1]);
    });
    assert.deepEqual(sbx.stats().requests, {}, 'no API call was made');
    // A flag refused after the download directory was named leaves no directory behind.
    const late = await runCli(['docs', 'fetch', '3f6c0000-0000-4000-8000-000000000000', '--download', path.join(dir, 'kyc'), '--deadline', 'soon', '--base-url', sbx.url], env, 60_000);
    assert.equal(late.code, 2, late.stderr);
    const noApi = await runCli(['docs', 'listen', '--fetch', '--download', path.join(dir, 'kyc')], { ...env, VAS_BASE_URL: '' }, 60_000);
    assert.equal(noApi.code, 2, noApi.stderr);
    assert.match(noApi.stderr, /no API to talk to/);
    assert.ok(!fs.existsSync(path.join(dir, 'kyc')), 'no download directory made for a refused command');
  });

  test('a session fetched through another API than the one that started it is refused (exit 2, nothing sent), not marked Expired; its own API still fetches it', async (t) => {
    const [own, other] = [await sandbox(t), await sandbox(t)];
    const dir = tempDir(t);
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const init = await runCli(['docs', 'init', '--base-url', `${own.url}/`, '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const session = JSON.parse(init.stdout) as InitJson;
    for (const args of [['--base-url', other.url], ['--sandbox']]) {
      const wrong = await runCli(['docs', 'fetch', session.sessionId, ...args], env);
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.equal(wrong.stderr, `error: session ${session.sessionId} was started with the API at ${own.url}, not ${args[0] === '--sandbox' ? 'the embedded sandbox (--sandbox)' : `the API at ${other.url}`}: fetch it with --base-url ${own.url} (nothing was sent)\n`);
    }
    assert.equal(other.stats().requests['doclocker-fetch-status'] ?? 0, 0, 'nothing sent to the other API');
    assert.equal(readState(t, dir).getSession(session.sessionId)?.status, 'Pending', 'not marked Expired');
    assert.equal((await answerConsent(session.url, 'approve')).status, 200);
    const right = await runCli(['docs', 'fetch', session.sessionId, '--base-url', own.url, '--download', path.join(dir, 'kyc')], env);
    assert.equal(right.code, 0, right.stderr);
    assertRealFiles(path.join(dir, 'kyc'), session.sessionId);
  });
});
