/**
 * The consent page as a person sees it: headless Chromium (Debian's `chromium`, driven by
 * playwright-core; never a downloaded browser) opens the URL `docs init` printed and clicks
 * Approve; `docs listen --fetch` receives the callback and saves the documents.
 * CI installs Chromium with apt; the test skips, saying why, only where it is absent.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CHROMIUM, openChromium } from './helpers/chromium.js';
import { checkXml } from '../src/docs/validate.js';
import { cliEnv, modeOf, runCli, sandbox, startListener, tempDir } from './docs-helpers.js';


test(
  'end to end in headless Chromium: open the consent page, click Approve, documents saved',
  { skip: CHROMIUM === undefined && process.env.CI !== 'true' ? 'Chromium is not installed (`apt-get install chromium`): the browser test needs it' : false },
  async (t) => {
    assert.ok(CHROMIUM, 'CI must have chromium (apt-get install chromium)');
    const sbx = await sandbox(t);
    const dir = tempDir(t);
    const downloads = path.join(dir, 'kyc');
    const env = cliEnv(path.join(dir, 'state.sqlite'));
    const listener = await startListener(t, ['--fetch', '--download', downloads, '--base-url', sbx.url], env);
    const init = await runCli(['docs', 'init', '--pin', '--listen', listener.baseUrl, '--base-url', sbx.url, '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const { sessionId, url } = JSON.parse(init.stdout) as { sessionId: string; url: string };

    const context = await openChromium(t);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    assert.match(await page.title(), /Share your documents/);
    assert.match(await page.locator('#documents').innerText(), /Aadhaar/);
    await page.locator('#pin').fill('123456'); // --pin: the page asks for the locker PIN
    await Promise.all([page.waitForURL(`**/consent/${sessionId}/approve`), page.locator('#approve').click()]);
    assert.equal(await page.locator('#result').getAttribute('data-status'), 'Completed');

    await listener.waitForLine(new RegExp(`success ${sessionId} Completed$`));
    await listener.waitForLine(new RegExp(`fetched ${sessionId} 2 document\\(s\\), 4 file\\(s\\)`));
    const sessionDir = path.join(downloads, sessionId);
    assert.deepEqual(fs.readdirSync(sessionDir).sort(), ['aadhaar.pdf', 'aadhaar.xml', 'pan.pdf', 'pan.xml']);
    for (const name of fs.readdirSync(sessionDir)) {
      const bytes = fs.readFileSync(path.join(sessionDir, name));
      assert.equal(modeOf(path.join(sessionDir, name)), 0o600);
      if (name.endsWith('.pdf')) assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      else assert.deepEqual(checkXml(bytes), { ok: true });
    }
    assert.equal(await listener.stop(), 0);
  },
);
