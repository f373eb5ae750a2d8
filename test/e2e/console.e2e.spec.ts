/// <reference lib="dom" />
/**
 * #50 the web console as a person uses it, in a real browser (test/support/browser.ts): signed in with an
 * account's API key, it finds a document by number across areas (Belgium's and Spain's first documents, sent
 * through their seed routes), opens it with its timeline and PDF, shows the suppliers, shows a document's request as
 * accepted and cancels one where its area can (the toy area's; a refusal with its message and request id), registers a webhook,
 * sends it a test event, shows the delivery with the receiver's answer and re-sends it. Operations: an account's
 * key sees "Operators only" (the API's 403); an operator (cli operators create) sees a report a reporting worker
 * without the test-only area dead-lettered, replays it from the page once the worker is fixed, and the document
 * is reported. Signed in with an OAuth client's id and secret instead: a wrong secret shows the token endpoint's
 * refusal, the right one opens Documents with only the access token kept (never the secret), and a token that
 * expired (by the API's answer, or by the tab's clock) brings the sign-in back saying so. Every page: no console
 * error, no serious or critical axe-core violation, a screenshot at 1280 and 390 px (the run's test artefacts).
 * Another account's document of the same number never reaches the page. A database of its own: the first
 * documents' literal identifiers may be other tests' too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, HTTPResponse, Page } from 'puppeteer-core';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@einvoice/domain/infrastructure';
import { createTenant, hashApiKey } from '../../apps/gateway/src/auth/api-keys';
import { CONSOLE_CSP } from '../../apps/gateway/src/http/console-site';
import { gatewayClient } from '../../clients/typescript';
import { launchBrowser, screenshot, watchedPage } from '../support/browser';
import { FIRST_DOCUMENTS, firstExamples, type OpenApiDocumentJson } from '../support/first-documents';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { ownDatabase, prepareOwnDatabase } from '../support/own-database';
import { type AppProcess, type StartedGateway, ensureConsoleBuilt, eventually, runCli, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';
import { WebhookReceiver, webhookTestEnv } from '../support/webhook-receiver';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '..', '..');
const AXE = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

interface Listed {
  readonly id: string;
  readonly area: string;
  readonly number: string;
}

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: ReadonlyArray<{ readonly target: unknown }>;
}

describe('#50 the web console in a browser', () => {
  const own = ownDatabase('console');
  const env = testEnv({ ...own.env, ...webhookTestEnv });
  const apps: AppProcess[] = [];
  const receiver = new WebhookReceiver([], (n) => ({ received: n }));
  const problems: string[] = [];
  /** Every document id the console's requests were answered with. */
  const shownIds = new Set<string>();
  /** The PDFs the console fetched: status, type and size. */
  const pdfs: Array<{ status: number; type: string; bytes: number }> = [];
  /** What axe-core found serious or critical, per page. */
  const violations: Record<string, string[]> = {};
  let dataSource: DataSource;
  let browser: Browser;
  let page: Page;
  let url: string;
  let apiKey: string;
  let mine: Listed[];
  let theirs: Listed[];
  let beNumber: string;
  let gateway: StartedGateway;
  let operatorKey: string;

  /** axe-core on what the page shows now, and its screenshots at 1280 and 390 px. */
  const check = async (name: string) => {
    // Through the DevTools protocol, which the page's CSP does not govern: no policy bypass, no inline <script>.
    await page.evaluate(AXE);
    const found = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
      // Not into the PDF's frame: a blob: document of the browser's viewer, not the console's.
      return (await axe.run(document, { resultTypes: ['violations'], iframes: false })).violations;
    });
    violations[name] = found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
    await screenshot(page, `console-${name}-1280`, true);
    await page.setViewport({ width: 390, height: 844 });
    await screenshot(page, `console-${name}-390`, true);
    // Nothing wider than the screen at 390 px but what scrolls on purpose (the tables, in their own region).
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect({ name, overflow }).toEqual({ name, overflow: 0 });
    await page.setViewport({ width: 1280, height: 900 });
  };
  const text = () => page.evaluate(() => document.body.innerText);
  const heading = (title: string) => page.waitForFunction((t) => document.querySelector('h1')?.textContent === t, {}, title);

  beforeAll(async () => {
    ensureConsoleBuilt();
    await prepareOwnDatabase(env, 'the console\'s e2e');
    dataSource = createDataSource({ databaseUrl: own.databaseUrl, poolSize: 2, applicationName: 'einvoice-test-console' });
    await dataSource.initialize();
    ({ apiKey } = await createTenant(dataSource, 'console tenant A'));
    const operator = runCli(['operators', 'create', 'console on-call'], env);
    expect(operator.status).toBe(0);
    operatorKey = JSON.parse(operator.stdout.trim()).api_key;
    const other = await createTenant(dataSource, 'console tenant B');
    gateway = await startGateway(env as Record<string, string>);
    url = gateway.url;
    apps.push(gateway.app);
    for (const worker of ['reporting-worker', 'delivery-worker', 'webhook-dispatcher'] as const) apps.push(startApp(worker, env));
    await untilWorkersReady(gateway, 'reporting-worker', 'delivery-worker', 'webhook-dispatcher');
    await receiver.start();

    // Tenant A: Belgium's and Spain's first documents, through the generated client, as the README sends them.
    const document = JSON.parse(readFileSync(path.join(ROOT, 'clients', 'typescript', 'openapi.json'), 'utf8')) as OpenApiDocumentJson;
    const first = firstExamples(document);
    const api = gatewayClient({ baseUrl: url, apiKey });
    await FIRST_DOCUMENTS.be(api, first);
    await FIRST_DOCUMENTS.es(api, first);
    // Tenant B: a Belgian supplier of its own sends an invoice of the same number.
    const b = new Client(url, other.apiKey);
    const onboarding = first('/be/einvoice/onboard', 'post');
    const onboarded = await b.post('/be/einvoice/onboard', { ...onboarding, identifiers: [{ scheme: 'BE:VAT', id: beVat() }] });
    expect(onboarded.status).toBe(201);
    const invoice = first('/be/einvoice/generate/invoice', 'post');
    beNumber = invoice.ID;
    const sent = await b.post('/be/einvoice/generate/invoice', invoice, { supplier_uuid: onboarded.body.data.supplier_uuid, transport_mode: 'peppol' });
    expect([200, 202]).toContain(sent.status);

    mine = (await new Client(url, apiKey).get('/v1/documents?limit=100')).body.data;
    theirs = (await b.get('/v1/documents?limit=100')).body.data;
    expect(mine.map((d) => d.area).sort()).toEqual(['be', 'es']);
    expect(theirs.map((d) => d.number)).toEqual([beNumber]);

    browser = await launchBrowser();
    page = await watchedPage(browser, problems);
    page.on('response', async (response: HTTPResponse) => {
      if (!new URL(response.url()).pathname.startsWith('/v1/documents') || response.request().method() !== 'GET') return;
      if (response.url().endsWith('/pdf')) {
        pdfs.push({ status: response.status(), type: response.headers()['content-type'] ?? '', bytes: Number(response.headers()['content-length'] ?? 0) });
        return;
      }
      if (!(response.headers()['content-type'] ?? '').includes('json')) return;
      const body = (await response.json().catch(() => null)) as { data?: Listed | Listed[] } | null;
      for (const d of [body?.data ?? []].flat()) shownIds.add(d.id);
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await receiver.close();
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  it('serves the console with its strict Content-Security-Policy, client routes included; its files exist', async () => {
    for (const route of ['/console', '/console/', '/console/documents/x']) {
      const answer = await fetch(`${url}${route}`);
      expect({ route, status: answer.status, csp: answer.headers.get('content-security-policy') }).toEqual({ route, status: 200, csp: CONSOLE_CSP });
      expect(await answer.text()).toContain('<div id="app"></div>');
    }
    const missing = await fetch(`${url}/console/assets/gone.js`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).errors[0].code).toBe('CONSOLE.NOT_FOUND');
  });

  it('signs in: a wrong key shows the API\'s message and request id; the right one opens Documents, kept in this tab only', async () => {
    await page.goto(`${url}/console`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('input[name="api_key"]');
    await check('sign-in');
    await page.locator('input[name="api_key"]').fill('sk_not_a_key');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.error [data-request-id]');
    expect(await page.$eval('.error', (e) => e.textContent)).toContain('The API key is not valid.');
    // The browser logs the refused request itself (a 401 it was asked to show): expected here, and only here.
    const refused = problems.splice(0);
    expect(refused.filter((p) => !/status of 401/.test(p))).toEqual([]);
    await check('sign-in-refused');

    await page.locator('input[name="api_key"]').fill(apiKey);
    await page.click('button[type="submit"]');
    await heading('Documents');
    await page.waitForFunction(() => document.querySelectorAll('table.documents tbody a').length === 2);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).toContain(apiKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(page.url()).not.toContain(apiKey);
    // An account's key: no Operations page offered.
    expect(await page.$$eval('header nav a', (links) => links.map((a) => a.textContent))).toEqual(['Documents', 'Suppliers', 'Webhooks']);
    await check('documents');
  });

  it('finds a document by number across areas: the account\'s own only, not another account\'s of the same number', async () => {
    await page.locator('input[name="number"]').fill(beNumber);
    await page.click('form.filters button[type="submit"]');
    await page.waitForFunction(() => location.hash.includes('number='));
    await page.waitForFunction(() => document.querySelector('tbody')?.getAttribute('aria-busy') === 'false' && document.querySelectorAll('table.documents tbody tr').length === 1);
    const rows = await page.$$eval('table.documents tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText)));
    expect(rows).toHaveLength(1);
    expect(rows[0][0]).toContain(beNumber);
    expect(rows[0][1]).toBe('be');
    // Its buyer (#50 `counterparty`), the total in the document's currency (EUR), and its two tracks.
    expect(rows[0][3]).toContain('Antwerp Buyer BV');
    expect(rows[0][5]).toMatch(/€|EUR/);
    expect(rows[0][6]).toMatch(/authority none/);
    await check('documents-by-number');
  });

  it('opens the document: its timeline with times, and its PDF inline from a blob: URL', async () => {
    const be = mine.find((d) => d.area === 'be')!;
    await page.click(`a[href="#/documents/${be.id}"]`);
    await heading(`Document ${beNumber}`);
    await page.waitForSelector('ol.timeline li time');
    const steps = await page.$$eval('ol.timeline li .step', (items) => items.map((i) => i.textContent));
    expect(steps[0]).toBe('accepted');
    await page.waitForSelector('.pdf-frame iframe[src^="blob:"]');
    // What the frame shows: the PDF the console fetched with the key, as the API serves it (the page's CSP lets no
    // script read a blob: URL, so the bytes are compared with the API's own answer).
    const src = await page.$eval('.pdf-frame iframe', (frame) => (frame as HTMLIFrameElement).src);
    await page.waitForFunction((blob) => document.querySelector('iframe')?.src === blob, {}, src);
    expect(page.frames().some((frame) => frame.url() === src)).toBe(true);
    const served = await new Client(url, apiKey).bytes(`/v1/documents/${be.id}/pdf`);
    expect(served.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfs).toEqual([{ status: 200, type: 'application/pdf', bytes: served.body.length }]);
    expect(await text()).toContain('Download XML');
    await check('document');
  });

  it('shows the suppliers and one supplier\'s profile', async () => {
    await page.click('header nav a[href="#/suppliers"]');
    await heading('Suppliers');
    await page.waitForFunction(() => document.querySelectorAll('tbody a').length === 2);
    await check('suppliers');
    await page.click('tbody a');
    await page.waitForSelector('dl.facts');
    await check('supplier');
  });

  it('#50 shows the request as accepted; cancels a document where its area can (reason, confirmation, answer, timeline); shows a refusal with its message and request id', async () => {
    // The toy area cancels through the pipeline's own route (its sandbox authority answers at once; `KEEP-` refuses).
    const tenant = new Client(url, apiKey);
    const onboarded = await tenant.post('/toy/einvoice/onboard', { registered_name: 'Toy Cancels', tax_id: `TOY${String((Date.now() + 500_000) % 1e6).padStart(6, '0')}` });
    expect(onboarded.status).toBe(201);
    const reported = async (ID: string) => {
      const sent = await tenant.post('/toy/einvoice/documents', { ID, IssueDate: '2026-11-24', Total: 121.5 }, { supplier_uuid: onboarded.body.data.supplier_uuid });
      expect([200, 202]).toContain(sent.status);
      const documentId: string = sent.body.data.documentId;
      await eventually(`${ID} reported`, async () => ((await tenant.get(`/v1/documents/${documentId}`)).body.data?.status === 'reported' ? true : undefined));
      return documentId;
    };
    const run = Date.now().toString(36).toUpperCase();
    const open = async (documentId: string, number: string) => {
      await page.evaluate((hash) => (location.hash = hash), `#/documents/${documentId}`);
      await heading(`Document ${number}`);
      await page.waitForSelector('form.cancel input[name="reason"]');
    };
    const dialogs: string[] = [];
    /** Answers the next confirmation: yes or no. */
    const answerNextDialog = (yes: boolean) => page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void (yes ? dialog.accept() : dialog.dismiss());
    });
    const steps = () => page.$$eval('ol.timeline li .step', (items) => items.map((i) => i.textContent));

    const number = `CONSOLE-CANCEL-${run}`;
    const documentId = await reported(number);
    await open(documentId, number);
    // The request as accepted, opened on demand: the body as sent.
    await page.click('details.accepted-request summary');
    await page.waitForSelector('details.accepted-request pre.json');
    expect(JSON.parse(await page.$eval('details.accepted-request pre.json', (e) => e.textContent ?? ''))).toEqual({ ID: number, IssueDate: '2026-11-24', Total: 121.5 });
    expect(await page.$eval('form.cancel label', (e) => (e as HTMLElement).innerText)).toContain('Reason for cancelling');
    await page.locator('form.cancel input[name="reason"]').fill('Wrong buyer');
    // Not confirmed: nothing sent, the document still reported.
    answerNextDialog(false);
    await page.click('form.cancel button[type="submit"]');
    await eventually('the confirmation asked', async () => (dialogs.length === 1 ? true : undefined));
    expect((await tenant.get(`/v1/documents/${documentId}`)).body.data.status).toBe('reported');
    expect(await page.$eval('[data-cancel-outcome]', (e) => e.textContent)).toBe('');
    // Confirmed: the area's answer, and the timeline reloaded with the cancellation.
    answerNextDialog(true);
    await page.click('form.cancel button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('[data-cancel-outcome]')?.textContent?.includes('Cancelled (HTTP 200)'));
    await page.waitForFunction(() => [...document.querySelectorAll('ol.timeline li .step')].some((step) => step.textContent === 'cancelled'));
    expect((await steps()).slice(-2)).toEqual(['cancellation_requested', 'cancelled']);
    expect(dialogs).toEqual([expect.stringContaining(number), expect.stringContaining(number)]);
    expect((await tenant.get(`/v1/documents/${documentId}`)).body.data.status).toBe('cancelled');
    await check('document-cancelled');

    // The authority refuses: the 409's message and request id, and the refusal in the timeline.
    const kept = `KEEP-${run}`;
    const keptId = await reported(kept);
    await open(keptId, kept);
    await page.locator('form.cancel input[name="reason"]').fill('Wrong buyer');
    answerNextDialog(true);
    await page.click('form.cancel button[type="submit"]');
    await page.waitForSelector('section[aria-labelledby="actions-title"] .error [data-request-id]');
    expect(await page.$eval('section[aria-labelledby="actions-title"] .error', (e) => (e as HTMLElement).innerText)).toMatch(/refused to cancel[\s\S]*HTTP 409/);
    await page.waitForFunction(() => [...document.querySelectorAll('ol.timeline li .step')].some((step) => step.textContent === 'cancellation_refused'));
    // The browser logs the refused request itself (a 409 the page was asked to show): expected here, and only here.
    expect(problems.splice(0).filter((p) => !/status of 409/.test(p))).toEqual([]);
    await check('document-cancel-refused');

    // A Belgian document: Peppol has no cancellation, said so; its request shown too.
    const be = mine.find((d) => d.area === 'be')!;
    await page.evaluate((hash) => (location.hash = hash), `#/documents/${be.id}`);
    await heading(`Document ${beNumber}`);
    await page.waitForFunction(() => document.querySelector('section[aria-labelledby="actions-title"]')?.textContent?.includes('No cancellation here'));
    expect(await page.$('form.cancel')).toBeNull();
    await page.click('details.accepted-request summary');
    await page.waitForSelector('details.accepted-request pre.json');
    expect(JSON.parse(await page.$eval('details.accepted-request pre.json', (e) => e.textContent ?? ''))).toMatchObject({ ID: beNumber });
    await check('document-request');
  });

  it('registers a webhook, sends it a test event, shows the delivery with the receiver\'s answer, and re-sends it', async () => {
    await page.click('header nav a[href="#/webhooks"]');
    await heading('Webhooks');
    await page.waitForFunction(() => document.querySelector('tbody')?.getAttribute('aria-busy') === 'false');
    await page.locator('input[name="url"]').fill(receiver.url);
    await page.locator('input[name="description"]').fill('console e2e');
    await page.click('form.edit button[type="submit"]');
    await page.waitForSelector('[data-secret]');
    expect(await page.$eval('[data-secret]', (e) => e.textContent)).toMatch(/^whsec_/);
    await page.waitForFunction(() => document.querySelectorAll('tbody a').length === 1);
    await check('webhooks');

    await page.click('tbody a');
    await heading('Webhook');
    await page.waitForSelector('select[name="type"]');
    await page.select('select[name="type"]', 'document.reported');
    await page.click('form.inline button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('.delivery .attempt')?.textContent?.includes('HTTP 200'));
    expect(await page.$eval('.delivery .attempt', (e) => e.textContent)).toContain('"received": 1');
    await check('webhook');

    await page.click('.delivery button');
    await page.waitForFunction(() => {
      const attempts = [...document.querySelectorAll('.delivery .attempt')].map((a) => a.textContent ?? '');
      return attempts.length === 2 && attempts[1].includes('"received": 2');
    });
    expect(receiver.received).toHaveLength(2);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    await check('webhook-resent');
  });

  it('marks each page once its data is on screen (console:<page>, what `npm run bench` times a page load by), whole loads keeping the tab\'s session', async () => {
    // What the page shows at the moment it marks, read in the mark's own call (not later, when it would show it anyway).
    const { identifier } = await page.evaluateOnNewDocument(() => {
      const mark = performance.mark.bind(performance);
      const seen: object[] = [];
      (window as unknown as { shownAtMark: object[] }).shownAtMark = seen;
      performance.mark = (name: string, options?: PerformanceMarkOptions) => {
        if (name.startsWith('console:')) {
          seen.push({
            name,
            heading: document.querySelector('main h1')?.textContent,
            busy: document.querySelector('main tbody')?.getAttribute('aria-busy') ?? null,
            rows: Array.from(document.querySelectorAll('main tbody tr')).filter((tr) => !tr.querySelector('td.empty')).length,
            timeline: document.querySelectorAll('main ol.timeline li').length > 0,
            error: options?.detail?.error ?? null,
          });
        }
        return mark(name, options);
      };
    });
    try {
      const be = mine.find((d) => d.area === 'be')!;
      const seen: Record<string, unknown> = {};
      for (const [route, name] of [['#/documents', 'documents'], [`#/documents?number=${beNumber}`, 'documents'], [`#/documents/${be.id}`, 'document'], ['#/suppliers', 'suppliers'], ['#/webhooks', 'webhooks']]) {
        await page.goto('about:blank');
        await page.goto(`${url}/console${route}`);
        await page.waitForFunction((mark) => performance.getEntriesByName(mark, 'mark').length > 0, {}, `console:${name}`);
        seen[route] = await page.evaluate(() => (window as unknown as { shownAtMark: object[] }).shownAtMark);
      }
      const list = (name: string, heading: string, rows: number) => [{ name: `console:${name}`, heading, busy: 'false', rows, timeline: false, error: null }];
      // As many rows as the API's first page holds (the tests before this one add documents and suppliers).
      const firstPage = async (path: string) => ((await new Client(url, apiKey).get(path)).body as { data: unknown[] }).data.length;
      expect(seen).toEqual({
        '#/documents': list('documents', 'Documents', await firstPage('/v1/documents')),
        [`#/documents?number=${beNumber}`]: list('documents', 'Documents', 1),
        [`#/documents/${be.id}`]: [{ name: 'console:document', heading: `Document ${beNumber}`, busy: null, rows: 0, timeline: true, error: null }],
        '#/suppliers': list('suppliers', 'Suppliers', await firstPage('/v1/suppliers')),
        '#/webhooks': list('webhooks', 'Webhooks', await firstPage('/v1/webhooks')),
      });
    } finally {
      await page.removeScriptToEvaluateOnNewDocument(identifier);
    }
  });

  it('signs out: the key is gone from the tab, the sign-in form is back', async () => {
    await page.click('button.sign-out');
    await page.waitForSelector('input[name="api_key"]');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('signs in with an OAuth client: a wrong secret is refused with the request id; the tab keeps the access token, never the secret', async () => {
    const created = await new Client(url, apiKey).post('/v1/oauth/clients', undefined);
    expect(created.status).toBe(201);
    const { client_id: clientId, client_secret: clientSecret } = created.body as { client_id: string; client_secret: string };
    const clientForm = 'form.sign-in-client';
    await page.waitForSelector(`${clientForm} input[name="client_id"]`);
    await page.locator(`${clientForm} input[name="client_id"]`).fill(clientId);
    await page.locator(`${clientForm} input[name="client_secret"]`).fill('cs_wrong');
    await page.click(`${clientForm} button[type="submit"]`);
    await page.waitForSelector(`${clientForm} ~ .error [data-request-id]`);
    expect(await page.$eval(`${clientForm} ~ .error`, (e) => e.textContent)).toContain('Client authentication failed: unknown client or wrong secret.');
    // The browser logs the refused token request itself (a 401 it was asked to show): expected here.
    expect(problems.splice(0).filter((p) => !/status of 401/.test(p))).toEqual([]);
    await check('sign-in-client-refused');

    await page.locator(`${clientForm} input[name="client_secret"]`).fill(clientSecret);
    await page.click(`${clientForm} button[type="submit"]`);
    // The account's documents (the cancellation test before this one added the toy area's).
    await heading('Documents');
    await page.waitForFunction(() => document.querySelectorAll('table.documents tbody a').length >= 2);
    const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('einvoice.console.session') ?? 'null'));
    expect(session).toEqual({ credential: expect.stringMatching(/^at_/), kind: 'tenant', name: 'console tenant A', client: { clientId, expiresAt: expect.any(Number) } });
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(clientSecret);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await page.$$eval('header nav a', (links) => links.map((a) => a.textContent))).toEqual(['Documents', 'Suppliers', 'Webhooks']);
  });

  it('a client\'s token the API answers expired (AUTH.TOKEN_EXPIRED) brings the sign-in back with why, then the same page with a new token', async () => {
    // The tab's session made to hold a second client's token, expired before its first use (a token used already stays
    // in the gateway's cache up to 30 s, whatever the table says).
    const { client_id: clientId, client_secret: clientSecret } = (await new Client(url, apiKey).post('/v1/oauth/clients', undefined)).body as { client_id: string; client_secret: string };
    const issued = await new Client(url).post('/v1/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    expect(issued.status).toBe(200);
    await dataSource.query(`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashApiKey(issued.body.access_token)]);
    await page.evaluate(
      (token, id) => {
        const stored = JSON.parse(sessionStorage.getItem('einvoice.console.session') ?? 'null');
        sessionStorage.setItem('einvoice.console.session', JSON.stringify({ ...stored, credential: token, client: { ...stored.client, clientId: id } }));
      },
      issued.body.access_token,
      clientId,
    );
    await page.click('header nav a[href="#/suppliers"]');
    await page.waitForSelector('.session-ended');
    expect(await page.$eval('.session-ended', (e) => e.textContent)).toMatch(/^Your access token expired\. Sign in again with the client's secret/);
    await page.waitForSelector('.session-ended + .error [data-request-id]');
    expect(await page.$eval('.session-ended + .error', (e) => e.textContent)).toContain('The access token has expired');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    // The client's id is filled in again, and the focus waits in the secret's field.
    expect(await page.$eval('form.sign-in-client input[name="client_id"]', (e) => (e as HTMLInputElement).value)).toBe(clientId);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('client_secret');
    expect(problems.splice(0).filter((p) => !/status of 401/.test(p))).toEqual([]);
    await check('sign-in-expired');

    // (The check's screenshots resize the page; the focus is put back where it was before typing.)
    await page.focus('form.sign-in-client input[name="client_secret"]');
    await page.keyboard.type(clientSecret);
    await page.keyboard.press('Enter');
    await heading('Suppliers');
    await page.waitForFunction(() => document.querySelectorAll('tbody a').length >= 2);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(clientSecret);
  });

  it('a client\'s token past its expiry by the tab\'s clock is not sent: a reload shows the sign-in saying so; sign-out clears the tab', async () => {
    await page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem('einvoice.console.session') ?? 'null');
      sessionStorage.setItem('einvoice.console.session', JSON.stringify({ ...stored, client: { ...stored.client, expiresAt: Date.now() - 1 } }));
    });
    const asked: string[] = [];
    const listen = (request: { url(): string }) => void (new URL(request.url()).pathname.startsWith('/v1/') && asked.push(request.url()));
    page.on('request', listen);
    await page.reload({ waitUntil: 'networkidle0' });
    page.off('request', listen);
    await page.waitForSelector('.session-ended');
    expect(await page.$eval('.session-ended', (e) => e.textContent)).toMatch(/Your access token expired at .+\. Sign in again/);
    expect(asked).toEqual([]);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    await signIn(apiKey, 'Suppliers');
    await signOut();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.$('.session-ended')).toBeNull();
  });

  /** Signs in with `key` from the sign-in form; waits for the page's heading. */
  const signIn = async (key: string, title: string) => {
    await page.waitForSelector('input[name="api_key"]');
    await page.locator('input[name="api_key"]').fill(key);
    await page.click('button[type="submit"]');
    await heading(title);
  };
  const signOut = async () => {
    await page.click('button.sign-out');
    await page.waitForSelector('input[name="api_key"]');
  };

  it('an account\'s key opening #/operations sees "Operators only" with the API\'s 403 message and request id', async () => {
    await signIn(apiKey, 'Documents');
    await page.goto(`${url}/console#/operations`, { waitUntil: 'networkidle0' });
    await heading('Operations');
    await page.waitForSelector('.operators-only .error [data-request-id]');
    expect(await page.$eval('.operators-only', (e) => (e as HTMLElement).innerText)).toMatch(/Operators only[\s\S]*HTTP 403/);
    expect(await page.$$eval('header nav a', (links) => links.map((a) => a.textContent))).toEqual(['Documents', 'Suppliers', 'Webhooks']);
    // The browser logs the refused request itself (a 403 the page was asked to show): expected here, and only here.
    expect(problems.splice(0).filter((p) => !/status of 403/.test(p))).toEqual([]);
    await check('operations-refused');
    await signOut();
  });

  it('as an operator: sees a dead-lettered report on the Operations page, replays it once the worker is fixed, and the document is reported', async () => {
    // A reporting worker without the test-only toy area dead-letters the toy authority's reports (AUTHORITY.NO_CONNECTOR).
    const reporting = apps.findIndex((app) => app.name === 'reporting-worker');
    await apps[reporting].stop();
    apps[reporting] = startApp('reporting-worker', { ...env, EINVOICE_TEST_AREAS: '0' });
    await untilWorkersReady(gateway, 'reporting-worker');
    const tenant = new Client(url, apiKey);
    const onboarded = await tenant.post('/toy/einvoice/onboard', { registered_name: 'Toy Maker', tax_id: `TOY${String(Date.now() % 1e6).padStart(6, '0')}` });
    expect(onboarded.status).toBe(201);
    const sent = await tenant.post('/toy/einvoice/documents', { ID: `CONSOLE-DEAD-${Date.now().toString(36)}`, IssueDate: '2026-11-24', Total: 121.5 }, { supplier_uuid: onboarded.body.data.supplier_uuid });
    expect(sent.status).toBe(202);
    const documentId: string = sent.body.data.documentId;
    const operatorApi = new Client(url, operatorKey);
    const letter = await eventually('the toy report dead-lettered', async () => {
      const answer = await operatorApi.get('/v1/operations/dead-letters?replayed=false&limit=100');
      return (answer.body.data as Array<{ id: string; area: string; type: string }>).find((l) => l.area === 'toy' && l.type === 'AuthorityReportRequested');
    });

    await signIn(operatorKey, 'Operations');
    expect(await page.$$eval('header nav a', (links) => links.map((a) => a.textContent))).toEqual(['Operations']);
    const row = `#dead-letters tr[data-dead-letter="${letter.id}"]`;
    await page.waitForSelector(row);
    const cells = await page.$$eval(`${row} td`, (tds) => tds.map((td) => (td as HTMLElement).innerText));
    expect(cells[0]).toContain('AuthorityReportRequested');
    expect(cells[1]).toBe('toy');
    expect(cells[2]).toContain('AUTHORITY.NO_CONNECTOR');
    expect(cells[5]).toBe('no');
    // The document waits for its authority: listed among those not final (any age), by its id.
    await page.select('select[name="older_than"]', '0s');
    await page.waitForSelector(`#stuck-documents tr[data-stuck-document="${documentId}"]`);
    await page.waitForSelector('#consumer-lag tr[data-group] details');
    await page.waitForSelector('#authority-errors tr[data-area="pl"]');
    await check('operations');

    // The fix (a worker with the toy area), then the replay from the page, by keyboard.
    await apps[reporting].stop();
    apps[reporting] = startApp('reporting-worker', env);
    await untilWorkersReady(gateway, 'reporting-worker');
    await page.focus(`${row} button`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.includes('Replayed to'), {}, `${row} .row-outcome`);
    const reported = await eventually('the replayed document reported', async () => {
      const document = await tenant.get(`/v1/documents/${documentId}`);
      return document.body.data?.status === 'reported' ? document.body.data : undefined;
    });
    expect(reported.authority.status).toBeTruthy();
    // The page says so too: refreshed, the documents not final no longer list it.
    await eventually('the reported document gone from the documents not final', async () => {
      await page.click('#stuck-documents .filters button');
      await page.waitForFunction(() => document.querySelector('#stuck-documents tbody')?.getAttribute('aria-busy') === 'false');
      return (await page.$(`#stuck-documents tr[data-stuck-document="${documentId}"]`)) ? undefined : true;
    });
    // Listed as replayed, with when; replayed again: nothing sent, said on the row.
    await page.select('select[name="replayed"]', 'true');
    await page.waitForFunction((selector) => {
      const cell = document.querySelectorAll(`${selector} td`)[5];
      return !!cell && cell.textContent !== 'no';
    }, {}, row);
    await page.click(`${row} button`);
    await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.includes('Already replayed'), {}, `${row} .row-outcome`);
    await check('operations-replayed');
    await signOut();
  });

  it('never showed another account\'s document; no console error and no serious or critical axe violation on any page', () => {
    expect(shownIds.size).toBeGreaterThan(0);
    expect([...shownIds].filter((id) => theirs.some((d) => d.id === id))).toEqual([]);
    expect(Object.keys(violations).length).toBeGreaterThanOrEqual(9);
    expect(Object.entries(violations).filter(([, found]) => found.length)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
