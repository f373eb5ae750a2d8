// The web console's page loads (#50 "Done means": "Page loads under 1 s on this machine with 1,000,000 documents
// in the account"), measured by the documents-list phase on its fixture while its 50 submissions a second go on.
// Debian's Chromium, driven by puppeteer-core as the browser tests drive it (test/support/browser.ts), in rounds:
// each round a new browser context (an empty cache, no session) opens /console (the sign-in form: a first
// visit's load), signs in with the bench tenant's API key by the form (the click to the Documents page's rows),
// then loads each page a person opens first, each a whole page load from about:blank (the assets in the
// browser's cache, as after any first visit; the API's answers never are: the console asks with `no-store`).
// A load's time runs from the navigation's start (the page's performance.timeOrigin) to the page's own mark
// `console:<page>`, which the console sets once the page's data is on screen (apps/console/src/ui.tsx
// useRenderedMark: after the frame that shows it). With each page, the requests it made (Resource Timing: when
// each started after the navigation, how long it took, its time to first byte), so a slow page shows why.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, ensureDebianCommands, say } from '../lib/services.mjs';
import { distribution, ms, num, percentile } from './stats.mjs';

/** #50's target for a page load. */
export const PAGE_LOAD_TARGET_MS = 1000;

/** The browser tests' Chromium (test/support/browser.ts CHROMIUM): Debian's, or CHROMIUM_PATH. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium present before the phase's fixture is written (minutes): installed the way `npm test` installs it
 * (scripts/test.mjs: Debian's package, apt-get), or the run stops here saying so. A CHROMIUM_PATH that is
 * not a file is an error, not something to install.
 */
export function ensureChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (!existsSync(CHROMIUM)) throw new Error(`CHROMIUM_PATH=${CHROMIUM}: no such file (the console's page loads need Chromium; BENCH_CONSOLE_ROUNDS=0 leaves them out)`);
    return;
  }
  ensureDebianCommands({ chromium: 'chromium' });
  if (!existsSync(CHROMIUM)) throw new Error(`no ${CHROMIUM} after installing Debian's chromium: set CHROMIUM_PATH (or BENCH_CONSOLE_ROUNDS=0 leaves the console's page loads out)`);
}

/** The console's pages a person opens first; `route(n)` the hash route of round n's load. */
function pagesOf({ numbers, documents, statuses }) {
  const at = (list, n) => list[n % list.length];
  return [
    { name: 'Documents', mark: 'documents', route: () => '#/documents' },
    { name: 'Documents, number (every area)', mark: 'documents', route: (n) => `#/documents?number=${encodeURIComponent(at(numbers, n))}` },
    { name: 'Documents, status (each in turn)', mark: 'documents', route: (n) => `#/documents?status=${at(statuses, n)}` },
    { name: 'Document (timeline)', mark: 'document', route: (n) => `#/documents/${at(documents, n)}` },
    { name: 'Suppliers', mark: 'suppliers', route: () => '#/suppliers' },
    { name: 'Webhooks', mark: 'webhooks', route: () => '#/webhooks' },
  ];
}

/**
 * Documents of the tenant with a timeline and a PDF to show: the ones the bench submitted through the gateway
 * (its warm-up's and the list phase's; the fixture's rows have no events, no stored XML and no supplier row),
 * Delivered ones first, newest first.
 */
async function realDocuments(db, tenantId, count) {
  const { rows } = await db.query(
    `SELECT id FROM documents WHERE tenant_id = $1 AND document_number NOT LIKE 'FIXTURE-%'
     ORDER BY delivery_status = 'Delivered' DESC NULLS LAST, created_at DESC LIMIT $2`,
    [tenantId, count],
  );
  if (!rows.length) throw new Error('console page loads: the tenant has no document submitted through the gateway to open');
  return rows.map((r) => r.id);
}

/** The list's statuses, as the console's filter offers them (libs/domain document-states, built into dist/). */
function documentStatuses() {
  const require = createRequire(path.join(ROOT, 'package.json'));
  return require(path.join(ROOT, 'dist', 'libs', 'domain', 'src', 'account', 'document-states.js')).DOCUMENT_STATUSES;
}

/** Waits until the page set the mark `name`; resolves with its time after the navigation's start. */
async function markTime(page, name, timeout = 30_000) {
  const handle = await page.waitForFunction((mark) => performance.getEntriesByName(mark, 'mark')[0]?.startTime, { timeout, polling: 'raf' }, name);
  return handle.jsonValue();
}

/** What the page shows once marked: its error, its heading, its table's rows, its timeline's events. */
const shown = () => ({
  error: document.querySelector('main .error')?.textContent?.trim() ?? null,
  heading: document.querySelector('main h1')?.textContent?.trim() ?? null,
  rows: [...document.querySelectorAll('main table tbody tr')].filter((tr) => !tr.querySelector('td.empty')).length,
  events: document.querySelectorAll('main ol.timeline li').length,
});

/** The page's navigation and every request it made, as Navigation and Resource Timing record them. */
const timings = () => {
  const pick = (e) => ({
    name: e.name,
    start: e.startTime,
    end: e.responseEnd,
    ttfb: e.responseStart > 0 ? e.responseStart - e.requestStart : Number.NaN,
    cached: e.transferSize === 0 && e.decodedBodySize > 0,
    status: e.responseStatus,
  });
  const [navigation] = performance.getEntriesByType('navigation');
  return { navigation: pick(navigation), domContentLoaded: navigation.domContentLoadedEventEnd, resources: performance.getEntriesByType('resource').map(pick) };
};

/** One request's kind: its path with ids as {id}, its query's names only (`/v1/documents?limit&status`). */
function requestKind(name, origin) {
  const u = new URL(name);
  // A blob: URL (the PDF in its frame) names its creator's origin; it is no request to the gateway.
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${u.protocol} URL`;
  if (u.origin !== origin) return name;
  const route = u.pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}');
  const query = [...u.searchParams.keys()].join('&');
  return `${route}${query ? `?${query}` : ''}${route === '/console' ? ' (the page)' : ''}`;
}

/** The browser's problems on a page (as test/support/browser.ts watchedPage collects them). */
function watch(page, problems) {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${page.url()})`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${String(error)} (${page.url()})`));
  page.on('requestfailed', (request) => {
    // A request the page aborted itself (a blob: URL revoked as the page moves on) is no failure of the page.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
}

/**
 * The page's requests to the gateway still in flight, and `idle()`: resolves once none has been for `quietMs`
 * (or after `timeoutMs`). Not puppeteer's waitForNetworkIdle: the PDF's blob: frame, which Chromium's viewer
 * loads, never counts as finished there, and every Document load waited its whole timeout.
 */
function gatewayRequests(page, origin) {
  const inFlight = new Set();
  let changedAt = performance.now();
  page.on('request', (request) => {
    if (!request.url().startsWith(`${origin}/`)) return;
    inFlight.add(request);
    changedAt = performance.now();
  });
  for (const event of ['requestfinished', 'requestfailed']) {
    page.on(event, (request) => {
      if (inFlight.delete(request)) changedAt = performance.now();
    });
  }
  return {
    async idle(quietMs = 150, timeoutMs = 15_000) {
      const until = performance.now() + timeoutMs;
      while (!(inFlight.size === 0 && performance.now() - changedAt >= quietMs) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
    },
    /** A new page: what the last one left unanswered (aborted by the navigation) is not waited for. */
    reset: () => inFlight.clear(),
  };
}

/**
 * One round in a new browser context: the sign-in form, the sign-in, then each page. Returns the round's
 * loads: `{ page, ms, shown, requests, error }` (requests: the navigation and every resource).
 */
async function round(browser, { url, apiKey, pages, n, problems }) {
  const context = await browser.createBrowserContext();
  const loads = [];
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    watch(page, problems);
    const requests = gatewayRequests(page, new URL(url).origin);
    // The sign-in form with an empty cache: rendered by DOMContentLoaded (the module script runs before it, and
    // renders synchronously).
    await page.goto(`${url}/console`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('input[name="api_key"]');
    const form = await page.evaluate(timings);
    loads.push({ page: 'Sign-in form (empty cache)', ms: form.domContentLoaded, requests: [form.navigation, ...form.resources], shown: { rows: 0, events: 0 } });
    await page.$eval('input[name="api_key"]', (input, key) => (input.value = key), apiKey);
    await page.evaluate(() => {
      performance.mark('bench:sign-in');
      document.querySelector('main form button[type="submit"]').click();
    });
    const signedIn = await markTime(page, 'console:documents').catch(async (error) => {
      const what = await page.evaluate(shown).catch(() => ({}));
      throw new Error(`console: signing in with the bench tenant's key showed no Documents page (${error.message}; the page shows ${what.error ? `the error "${what.error}"` : `"${what.heading}"`})`);
    });
    const clicked = await page.evaluate(() => performance.getEntriesByName('bench:sign-in', 'mark')[0].startTime);
    const afterSignIn = await page.evaluate(timings);
    loads.push({
      page: 'Sign in -> Documents',
      ms: signedIn - clicked,
      shown: await page.evaluate(shown),
      requests: afterSignIn.resources.filter((r) => r.start >= clicked).map((r) => ({ ...r, start: r.start - clicked, end: r.end - clicked })),
    });
    for (const p of pages) {
      await page.goto('about:blank');
      requests.reset();
      await page.goto(`${url}/console${p.route(n)}`, { waitUntil: 'domcontentloaded' });
      let load;
      try {
        const at = await markTime(page, `console:${p.mark}`);
        load = { page: p.name, ms: at, shown: await page.evaluate(shown) };
      } catch (error) {
        load = { page: p.name, ms: Number.NaN, shown: await page.evaluate(shown).catch(() => ({})), error: `no mark console:${p.mark}: ${error.message}` };
      }
      // The requests that follow the content (the suppliers' names, the document's PDF) end before the next load.
      await requests.idle();
      const t = await page.evaluate(timings);
      load.requests = [t.navigation, ...t.resources];
      if (load.shown?.error) load.error ??= `the page shows an error: ${load.shown.error}`;
      loads.push(load);
    }
  } finally {
    await context.close();
  }
  return loads;
}

/**
 * The measurement: `rounds` rounds (one more first, not measured: the gateway's first queries of each page's
 * shape), with nothing else running (#50's condition: 1,000,000 documents in the account) or, given
 * `submit({ label, signal })` (the phase's paced submissions), while it runs until the last round ends.
 * `numbers`: document numbers of the tenant to search for; the documents opened are the ones it submitted.
 */
export async function consoleLoads({ db, url, apiKey, tenantId, numbers, rounds, submit, assertAlive }) {
  const { default: puppeteer } = await import('puppeteer-core');
  const pages = pagesOf({ numbers, documents: await realDocuments(db, tenantId, rounds + 1), statuses: documentStatuses() });
  // As test/support/browser.ts launches it: --no-sandbox, the user is root, which Chromium's sandbox refuses.
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const problems = [];
  const loads = [];
  try {
    const version = await browser.version();
    say(`console: ${version}, one round not measured`);
    await round(browser, { url, apiKey, pages, n: 0, problems: [] });
    const stop = new AbortController();
    const submissions = submit?.({ label: 'c', signal: stop.signal });
    const started = Date.now();
    try {
      for (let n = 1; n <= rounds; n++) {
        assertAlive();
        loads.push(...(await round(browser, { url, apiKey, pages, n, problems })));
        say(`  console round ${n}/${rounds} (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    } finally {
      stop.abort();
    }
    return { version, rounds, loads, problems, origin: new URL(url).origin, load: await submissions, durationS: (Date.now() - started) / 1000 };
  } finally {
    await browser.close();
  }
}

/** Each page's loads: their times, what they showed, and each kind of request's figures. */
function byPage(r) {
  const out = new Map();
  for (const load of r.loads) {
    const p = out.get(load.page) ?? { loads: [], requests: new Map() };
    out.set(load.page, p);
    p.loads.push(load);
    for (const q of load.requests ?? []) {
      const kind = requestKind(q.name, r.origin);
      const k = p.requests.get(kind) ?? { starts: [], durations: [], ttfbs: [], cached: 0, statuses: {} };
      p.requests.set(kind, k);
      k.starts.push(q.start);
      k.durations.push(q.end - q.start);
      if (Number.isFinite(q.ttfb)) k.ttfbs.push(q.ttfb);
      if (q.cached) k.cached += 1;
      if (q.status) k.statuses[q.status] = (k.statuses[q.status] ?? 0) + 1;
    }
  }
  return out;
}

/** The PDF of each Document load: its request's end after the navigation's start (it may follow the page). */
const pdfTimes = (r) =>
  r.loads.filter((l) => l.page.startsWith('Document ')).map((l) => l.requests?.find((q) => /\/pdf$/.test(new URL(q.name).pathname))?.end).filter(Number.isFinite);

/** The figures' lines (bench.mjs prints them in the documents-list phase) and whether every load showed its page. */
export function consoleLoadLines(r, { rate }) {
  const pages = byPage(r);
  const failures = r.loads.filter((l) => l.error);
  const lines = [
    `  console page loads    (#50: under ${PAGE_LOAD_TARGET_MS / 1000} s with the fixture's documents in the account) ${r.version} (puppeteer-core), ${r.rounds} rounds after one not measured, in ${num(r.durationS, 0)} s,`,
    `                        each round a new browser context that signs in by the form with the tenant's key, then loads each page whole from about:blank`,
    `                        (assets cached since the sign-in form, the API never): navigation start -> the page's mark console:<page> (its data on screen)`,
    `  ${'page'.padEnd(36)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}   p99 <= ${PAGE_LOAD_TARGET_MS} ms   loads; what it showed (p50)`,
  ];
  const worst = { name: undefined, p99: -Infinity };
  let missed = 0;
  for (const [name, p] of pages) {
    const times = p.loads.map((l) => l.ms).filter(Number.isFinite);
    const d = distribution(times);
    const met = d.p99 <= PAGE_LOAD_TARGET_MS && times.length === p.loads.length;
    if (!met) missed += 1;
    if (d.p99 > worst.p99) Object.assign(worst, { name, p99: d.p99 });
    const what = name.startsWith('Sign-in form')
      ? 'DOMContentLoaded (the form is rendered by then)'
      : name.startsWith('Document ')
        ? `events in its timeline: ${percentile(p.loads.map((l) => l.shown?.events ?? 0), 50)}`
        : `rows: ${percentile(p.loads.map((l) => l.shown?.rows ?? 0), 50)}`;
    const failed = p.loads.length - times.length;
    lines.push(`  ${name.padEnd(36)} ${ms(d.p50).padStart(8)} ${ms(d.p99).padStart(8)} ${ms(d.max).padStart(8)}   ${(met ? 'met' : 'MISSED').padEnd(16)}${p.loads.length}; ${what}${failed ? `; ${failed} NOT SHOWN` : ''}`);
    if (name.startsWith('Document ')) {
      const pdf = distribution(pdfTimes(r));
      lines.push(`  ${'  its PDF fetched (may follow)'.padEnd(36)} ${ms(pdf.p50).padStart(8)} ${ms(pdf.p99).padStart(8)} ${ms(pdf.max).padStart(8)}   (no target)      the first read of each: rendered`);
    }
  }
  const load = r.load;
  const failedSubmissions = load ? load.otherStatus + load.errors : 0;
  lines.push(
    load
      ? `  submissions meanwhile ${num(load.perSecond)} 202/s (target ${rate}; ${load.expected} accepted, ${failedSubmissions} failed)  POST p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}`
      : `  meanwhile             nothing else (BENCH_CONSOLE_UNDER=submissions: under the list's submissions)`,
  );
  lines.push(`  requests of each page (Resource Timing: start after the navigation's start p50; duration p50 / max; time to first byte p50; from the browser's cache; statuses)`);
  for (const [name, p] of pages) {
    lines.push(`    ${name}`);
    for (const [kind, k] of p.requests) {
      const d = distribution(k.durations);
      const statuses = Object.entries(k.statuses).map(([s, c]) => `${c}×${s}`).join(' ');
      lines.push(
        `      ${kind.padEnd(44)} start ${ms(percentile(k.starts, 50)).padStart(7)}  ${ms(d.p50).padStart(7)} / ${ms(d.max).padStart(7)}  ttfb ${ms(percentile(k.ttfbs, 50)).padStart(7)}`
          + `${k.cached ? `  cached ${k.cached}/${k.durations.length}` : ''}${statuses ? `  ${statuses}` : ''}${k.durations.length !== p.loads.length ? `  (${k.durations.length} in ${p.loads.length} loads)` : ''}`,
      );
    }
    const slowest = p.loads.filter((l) => Number.isFinite(l.ms)).sort((a, b) => b.ms - a.ms)[0];
    if (slowest) {
      const steps = (slowest.requests ?? [])
        .filter((q) => q.start <= slowest.ms)
        .map((q) => `${requestKind(q.name, r.origin).replace(' (the page)', '')} ${Math.round(q.start)}-${Math.round(q.end)}`);
      lines.push(`      slowest load ${ms(slowest.ms)}: ${steps.join(', ')} ms after its start`);
    }
  }
  for (const f of failures.slice(0, 5)) lines.push(`  NOT SHOWN             ${f.page}: ${f.error.slice(0, 300)}`);
  const problems = [...new Set(r.problems)];
  lines.push(`  browser problems      ${problems.length ? `${r.problems.length} (console errors, page errors, failed requests): ${problems.slice(0, 5).join(' | ').slice(0, 600)}` : 'none (no console error, page error or failed request)'}`);
  return { lines, failed: failures.length > 0 || failedSubmissions > 0, missed, pages: pages.size, worst };
}
