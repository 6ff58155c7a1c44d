/**
 * Debian's Chromium for the browser tests (driven by playwright-core; never a downloaded browser).
 * CI installs it with apt; outside CI a test skips, saying how to install it, where it is absent.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

function findChromium(): string | undefined {
  try {
    const found = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
    return found === '' ? undefined : found;
  } catch {
    return undefined;
  }
}

export const CHROMIUM = findChromium();
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * A headless Chromium with a throw-away profile, closed and removed when the test ends: one
 * cleanup that closes the browser first and only then removes its profile (removing it while
 * Chromium still writes there fails with ENOTEMPTY and left the browser running, so the test
 * file hung until its timeout).
 */
export async function openChromium(t: TestContext): Promise<BrowserContext> {
  assert.ok(CHROMIUM, 'CI must have chromium (apt-get install chromium)');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vas-chromium-'));
  let context: BrowserContext | undefined;
  t.after(async () => {
    await context?.close().catch(() => undefined);
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, timeout: 30_000 });
  return context;
}

/**
 * What a page does that a report must never do but load itself, as lines in order: every request,
 * dialog (dismissed), uncaught error and console message.
 */
export function recordPageEvents(page: Page): string[] {
  const events: string[] = [];
  page.on('dialog', (dialog) => {
    events.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => events.push(`request ${request.url()}`));
  page.on('pageerror', (error) => events.push(`error ${error.message}`));
  page.on('console', (message) => events.push(`console ${message.text()}`));
  return events;
}

/** Waits until the locator's text matches (the page updates after the server answers). */
export async function textOf(page: Page, selector: string, expected: RegExp): Promise<string> {
  const until = Date.now() + 15_000;
  for (;;) {
    const text = (await page.locator(selector).first().textContent()) ?? '';
    if (expected.test(text)) return text;
    if (Date.now() > until) throw new Error(`${selector}: "${text}" does not match ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
