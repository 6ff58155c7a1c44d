/**
 * `docs fetch` against document-locker upstreams that do not behave like the sandbox: each
 * server is started by the test on 127.0.0.1, port 0, and the CLI is the real one.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { runCli, spawnCli, tempDir } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

const SESSION = '3f6c2a9e-8d1b-4c7a-9e2f-5b6d7c8e9f01';
const PDF = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';
const XML = '<?xml version="1.0"?><doc/>';

interface UpstreamDocument {
  docType: string;
  idNumber: string;
  pdfUrl: string;
  xmlUrl: string;
}

/** The fetch-status answer of a completed session holding these documents. */
function completed(documents: readonly UpstreamDocument[]): string {
  return JSON.stringify({
    ok: true,
    responseCode: 200,
    message: 'Transmission OK',
    body: {
      sessionId: SESSION,
      status: 'Completed',
      documents: documents.map((doc) => ({ name: 'ASHA RAO', dob: '01011990', gender: 'F', ...doc })),
    },
  });
}

async function drain(req: http.IncomingMessage): Promise<void> {
  for await (const _ of req);
}

test('an Aadhaar number the API returns unmasked is shown masked to its last four digits (table and --json); the listing names the saved files by absolute path', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-docs-upstream-');
  const base = await startTestServer(t, async (req, res) => {
    await drain(req);
    if (req.url?.startsWith('/files/')) return res.end(req.url.endsWith('.xml') ? XML : PDF);
    res.setHeader('content-type', 'application/json');
    res.end(
      completed([
        { docType: 'aadhaar', idNumber: '2345 6789 0123', pdfUrl: `${base}/files/a.pdf`, xmlUrl: `${base}/files/a.xml` },
        // Another name for the same document, and a twelve-digit id under a docType we do not know.
        { docType: 'AADHAR_CARD', idNumber: '987654321098', pdfUrl: `${base}/files/b.pdf`, xmlUrl: `${base}/files/b.xml` },
        { docType: 'eid', idNumber: '1111-2222-3456', pdfUrl: `${base}/files/c.pdf`, xmlUrl: `${base}/files/c.xml` },
        { docType: 'pan', idNumber: 'ABCDE1234F', pdfUrl: `${base}/files/p.pdf`, xmlUrl: `${base}/files/p.xml` },
      ]),
    );
  });
  const text = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'kyc'], { cwd: dir });
  const json = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--json'], { cwd: dir });
  for (const run of [text, json]) {
    assert.equal(run.code, 0, run.stderr);
    for (const full of ['2345', '6789', '9876543', '1111', '2222']) assert.ok(!run.stdout.includes(full), `${full} is not shown`);
  }
  assert.match(text.stdout, /^aadhaar +xxxxxxxx0123 +ASHA RAO/m);
  assert.match(text.stdout, /^AADHAR_CARD +xxxxxxxx1098 /m);
  assert.match(text.stdout, /^eid +xxxxxxxx3456 /m);
  assert.match(text.stdout, /^pan +ABCDE1234F /m);
  const ids = (JSON.parse(json.stdout) as { documents: Array<{ idNumber: string }> }).documents.map((d) => d.idNumber);
  assert.deepEqual(ids, ['xxxxxxxx0123', 'xxxxxxxx1098', 'xxxxxxxx3456', 'ABCDE1234F']);
  // The listing, read from another directory, names the files where they are.
  fs.mkdirSync(path.join(dir, 'elsewhere'));
  const list = await runCli(['docs', 'fetch', '--json', '--state', '../state.sqlite'], { cwd: path.join(dir, 'elsewhere') });
  const files = (JSON.parse(list.stdout) as Array<{ files: string[] }>)[0]!.files;
  assert.equal(files.length, 8);
  for (const file of files) assert.ok(path.isAbsolute(file) && fs.existsSync(file), `${file} is where it was saved`);
  // Nothing the tool keeps holds the full number either.
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith('state.sqlite')) continue;
    assert.ok(!fs.readFileSync(path.join(dir, name)).includes('234567890123'), `${name} holds no full Aadhaar number`);
  }
});

test('a document URL that redirects is followed (no token to another origin, --docs-allow-host checked on every hop, loops end)', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-docs-upstream-');
  const storageRequests: Array<{ url: string; authorization: string | undefined }> = [];
  const storage = await startTestServer(t, async (req, res) => {
    await drain(req);
    storageRequests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.end(PDF);
  });
  // The storage host under another name than the API's: another origin.
  const storageOrigin = storage.replace('127.0.0.1', 'localhost');
  const apiFileRequests: string[] = [];
  const base = await startTestServer(t, async (req, res) => {
    await drain(req);
    const url = req.url ?? '';
    if (url.startsWith('/files/')) apiFileRequests.push(url);
    if (url === '/files/p.pdf') {
      res.writeHead(302, { location: `${storageOrigin}/store/p.pdf?X-Signature=abc123` });
      return res.end();
    }
    if (url === '/files/p.xml') {
      res.writeHead(307, { location: '/files/p-final.xml' });
      return res.end();
    }
    if (url === '/files/p-final.xml') return res.end(XML);
    if (url.startsWith('/files/loop')) {
      res.writeHead(302, { location: `/files/loop${url.length}` });
      return res.end();
    }
    res.setHeader('content-type', 'application/json');
    const loop = fs.existsSync(path.join(dir, 'loop'));
    res.end(completed([{ docType: 'pan', idNumber: 'ABCDE1234F', pdfUrl: `${base}/files/${loop ? 'loop' : 'p.pdf'}`, xmlUrl: `${base}/files/p.xml` }]));
  });

  const followed = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'kyc'], { cwd: dir });
  assert.equal(followed.code, 0, followed.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'kyc', SESSION, 'pan.pdf'), 'latin1'), PDF);
  assert.equal(fs.readFileSync(path.join(dir, 'kyc', SESSION, 'pan.xml'), 'utf8'), XML);
  assert.match(followed.stdout, new RegExp(`saved: .*pan\\.pdf \\(from ${storageOrigin}\\)`), 'the source is where the bytes came from');
  assert.match(followed.stdout, new RegExp(`saved: .*pan\\.xml \\(from ${base}\\)`));
  assert.deepEqual(storageRequests, [{ url: '/store/p.pdf?X-Signature=abc123', authorization: undefined }], 'no token to the storage host');
  assert.ok(!`${followed.stdout}${followed.stderr}`.includes('abc123'), 'the signature is not shown');

  // A host --docs-allow-host does not name is refused at the redirect, before any request to it.
  const refused = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'kyc2', '--docs-allow-host', 'docs.example.com'], { cwd: dir });
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, new RegExp(`pan PDF: download failed: document host ${new URL(storageOrigin).host} is not in --docs-allow-host: not fetched`));
  assert.equal(storageRequests.length, 1, 'nothing fetched from a host not allowed');

  // A redirect loop ends after a few hops with a clear reason.
  fs.writeFileSync(path.join(dir, 'loop'), '');
  apiFileRequests.length = 0;
  const loop = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'kyc3'], { cwd: dir });
  assert.equal(loop.code, 1, loop.stderr);
  assert.match(loop.stderr, /pan PDF: download failed: more than 5 redirects/);
  assert.equal(apiFileRequests.filter((u) => u.startsWith('/files/loop')).length, 6);
  assert.doesNotMatch(loop.stderr, /\n\s+at /);
});

test('stopped (SIGINT) while a document downloads: exit 3 with the command to continue, the session kept in the state; the re-run completes', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-docs-upstream-');
  let trickle = true;
  let xmlStarted!: () => void;
  const xmlRequested = new Promise<void>((resolve) => (xmlStarted = resolve));
  const base = await startTestServer(t, async (req, res) => {
    await drain(req);
    if (req.url === '/files/a.pdf') return res.end(PDF);
    if (req.url === '/files/a.xml') {
      if (!trickle) return res.end(XML);
      // Headers and a first byte, then nothing: the download is under way when the signal comes.
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<');
      xmlStarted();
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(completed([{ docType: 'aadhaar', idNumber: 'xxxxxxxx0123', pdfUrl: `${base}/files/a.pdf`, xmlUrl: `${base}/files/a.xml` }]));
  });
  const args = ['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'kyc'];
  const run = spawnCli(args, { cwd: dir });
  t.after(() => run.child.kill('SIGKILL'));
  await xmlRequested;
  run.child.kill('SIGINT');
  const stopped = await run.result;
  assert.equal(stopped.code, 3, stopped.stderr);
  assert.match(stopped.stderr, new RegExp(`stopped while saving the documents of session ${SESSION}; continue with: vas-verify docs fetch ${SESSION} --wait --download kyc`));
  assert.doesNotMatch(stopped.stderr, /\n\s+at |internal error/);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'kyc', SESSION)), ['aadhaar.pdf'], 'no half file');

  const list = await runCli(['docs', 'fetch', '--state', 'state.sqlite'], { cwd: dir });
  assert.match(list.stdout, new RegExp(`^${SESSION} +\\S+ +Completed +- +- +0$`, 'm'));

  trickle = false;
  const again = await runCli(args, { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /already saved: .*aadhaar\.pdf/);
  assert.match(again.stdout, /^saved: .*aadhaar\.xml/m);
});

test('an unreadable or refused document-locker answer is not quoted in the error line: no name or date of birth reaches the log', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-docs-upstream-');
  const answer = JSON.stringify({
    ok: true,
    responseCode: 200,
    message: 'Transmission OK',
    body: { sessionId: SESSION, status: 'Completed', documents: [{ name: 'MEERA JOSHI', dob: '17081972', docType: 'pan', idNumber: 'ABCDE1234F', gender: 'F', pdfUrl: '', xmlUrl: '' }] },
  });
  let mode: 'cut' | 'refused' = 'cut';
  const base = await startTestServer(t, async (req, res) => {
    await drain(req);
    res.writeHead(mode === 'cut' ? 200 : 400, { 'content-type': 'application/json' });
    // Cut short (a proxy's timeout), or refused with the answer echoed back.
    res.end(mode === 'cut' ? answer.slice(0, -20) : answer);
  });
  const runs = [];
  for (const json of [false, true]) {
    for (const m of ['cut', 'refused'] as const) {
      mode = m;
      runs.push(await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, ...(json ? ['--json'] : [])], { cwd: dir }));
    }
  }
  for (const run of runs) {
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^error: .*\d+ bytes, not quoted \(the answer may hold personal data\)/m);
    for (const text of [run.stdout, run.stderr]) {
      assert.ok(!text.includes('MEERA'), `no name in: ${text}`);
      assert.ok(!text.includes('17081972'), 'no date of birth');
    }
  }
  assert.match(runs[0]!.stderr, /response is not JSON \(application\/json\)/);
});

test('identifiers an upstream error message quotes are masked on stderr: a PAN, an Aadhaar number in groups, a date of birth, an account number', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-docs-upstream-');
  const message = 'PAN ABCDE1234F does not match DOB: 17/08/1972 of Aadhaar 2345 6789 0123 (account 123456789012)';
  const base = await startTestServer(t, async (req, res) => {
    await drain(req);
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: false, responseCode: 400, message }));
  });
  for (const format of ['text', 'json']) {
    const run = await runCli(['--log-format', format, 'docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /xxxxx1234F/, run.stderr);
    assert.match(run.stderr, /xxxx xxxx 0123/);
    assert.match(run.stderr, /DOB: xx-xx-xxxx/);
    assert.match(run.stderr, /xxxxxxxx9012/);
    for (const secret of ['ABCDE', '17/08/1972', '2345 6789', '12345678']) assert.ok(!run.stderr.includes(secret), `${secret} in: ${run.stderr}`);
  }
});
