/**
 * Debian's Chromium for the browser tests (driven by playwright-core; never a downloaded browser).
 * CI installs it with apt; outside CI a test skips, saying how to install it, where it is absent.
 */
import { execFileSync } from 'node:child_process';

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
