/// <reference lib="dom" />
/**
 * #47 the API reference as a person opens it: /docs in a real browser (Debian's Chromium, driven by
 * puppeteer-core; its own browser download cannot work here) renders every operation with no console
 * error and no "Resolver error" box (a reference to a schema the document does not define). The
 * screenshot is kept as a test artefact (TEST_LOG_DIR, else .run/test-artifacts).
 */
import type { Browser } from 'puppeteer-core';
import { launchBrowser, screenshot, watchedPage } from '../support/browser';
import { type AppProcess, startGateway } from '../support/stack';

jest.setTimeout(180_000);

describe('#47 /docs in a browser', () => {
  let gateway: { app: AppProcess; url: string };
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startGateway();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.app.stop();
  });

  it('renders every operation of the document, with no console error and no resolver error; screenshot kept', async () => {
    const problems: string[] = [];
    const page = await watchedPage(browser, problems);

    await page.goto(`${gateway.url}/docs`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.swagger-ui .opblock', { timeout: 60_000 });
    const operations = Object.values(((await (await fetch(`${gateway.url}/docs-json`)).json()) as { paths: Record<string, object> }).paths)
      .reduce((n: number, item) => n + Object.keys(item).length, 0);
    await page.$$eval('.swagger-ui .opblock-tag', (tags) => tags.forEach((tag) => (tag.closest('.opblock-tag-section')?.classList.contains('is-open') ? undefined : (tag as HTMLElement).click())));
    const shown = await page.$$eval('.swagger-ui .opblock', (blocks) => blocks.length);
    // The whole document through the page's own resolver (swagger-client, the one that writes a
    // "Resolver error" box when a reader opens an operation whose reference leads nowhere): opening all
    // 100-odd operations in a headless browser takes minutes, resolving them takes a second.
    const resolverErrors = await page.evaluate(async () => {
      const ui = (window as unknown as { ui: { specSelectors: { specJson(): { toJS(): object } }; fn: { resolve(o: object): Promise<{ errors: Array<{ message: string; fullPath?: string[] }> }> } } }).ui;
      const { errors } = await ui.fn.resolve({ spec: ui.specSelectors.specJson().toJS(), allowMetaPatches: false });
      return errors.map((e) => `${e.message} at ${(e.fullPath ?? []).join('/')}`);
    });
    const text = await page.evaluate(() => document.body.innerText);
    await screenshot(page, 'api-reference');
    expect(shown).toBe(operations);
    expect(resolverErrors).toEqual([]);
    expect(text).not.toContain('Resolver error');
    expect(problems).toEqual([]);
  });
});
