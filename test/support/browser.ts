/// <reference lib="dom" />
/**
 * A real browser for the e2e tests: Debian's Chromium (`apt-get install chromium`; scripts/test.mjs installs
 * it), driven by puppeteer-core, whose own browser download cannot work here. Pages record every console
 * error, uncaught error and failed request, and screenshots go to the run's test artefacts (TEST_LOG_DIR,
 * else .run/test-artifacts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTEFACTS = process.env.TEST_LOG_DIR ?? path.resolve(__dirname, '..', '..', '.run', 'test-artifacts');

export function launchBrowser(): Promise<Browser> {
  // --no-sandbox: the CI user is root, which Chromium's sandbox refuses.
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** A new page whose problems (console errors, uncaught errors, failed requests) are collected in `problems`. */
export async function watchedPage(browser: Browser, problems: string[], width = 1280, height = 900): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${page.url()})`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${String(error)} (${page.url()})`));
  page.on('requestfailed', (request) => {
    // A blob: URL revoked while the page moves on, or a request the page itself aborted, is no failure of the page.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  return page;
}

/** Saves a screenshot of what the page shows into the artefacts folder; returns its path. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(ARTEFACTS, { recursive: true });
  const file = path.join(ARTEFACTS, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage });
  return file;
}
