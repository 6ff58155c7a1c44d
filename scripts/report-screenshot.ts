/**
 * Redoes docs/report-demo.png, the README's picture of the run report: runs `npm run demo`
 * (src/cli/demo.ts, which writes .vas-demo/), opens the report it wrote in headless Chromium
 * (Debian's `chromium`, driven by playwright-core, as the browser tests do) and saves a
 * full-page screenshot.
 *
 *   node --import tsx scripts/report-screenshot.ts [out.png]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs', 'report-demo.png'));
/** Tallest picture taken, in CSS pixels. */
const MAX_HEIGHT = 2_400;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

const executablePath = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vas-report-shot-'));
// The demo writes where `npm run demo` does, so the page shows the paths a reader would type.
const env: NodeJS.ProcessEnv = { ...process.env };
delete env.VAS_DEMO_DIR;
try {
  const demo = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'cli', 'demo.ts')], {
    cwd: root, env, encoding: 'utf8',
  });
  const reportLine = /run report \(open it in a browser\): (.+)/.exec(demo.stdout)?.[1];
  if (demo.status !== 0 || !reportLine) throw new Error(`the demo failed (exit ${demo.status}):\n${demo.stderr}`);
  const report = path.resolve(root, reportLine.trim());
  const profile = path.join(work, 'chromium-profile'); // a throwaway profile, removed below
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: FLAGS, viewport: { width: 1000, height: 900 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
    // The page leads with the decision and its lists: the picture shows the top of it, not every held row.
    const height = Math.min(await page.evaluate("document.documentElement.scrollHeight") as number, MAX_HEIGHT);
    await page.screenshot({ path: out, clip: { x: 0, y: 0, width: page.viewportSize()?.width ?? 1000, height } });
  } finally {
    await context.close();
  }
  process.stdout.write(`${path.relative(process.cwd(), out)} (${Math.round(fs.statSync(out).size / 1024)} KiB) from ${reportLine.trim()}\n`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
