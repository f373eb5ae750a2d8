// The UAE phase (#10): a UAE participant sends PINT AE invoices to another participant hosted here for
// `duration` s; then waits until every accepted document is completed (delivered AND reported to the
// sandbox FTA, whose MLS comes after UAE_SANDBOX_FTA_MLS_MS) and reports accepted/s, latency,
// submitted->delivered and submitted->reported; finally our PINT AE rules' cost per document next to the
// official Schematron's (SaxonJS) on the same documents (the 32 official examples as JSON).
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/services.mjs';
import { deliveryTimings } from './delivery.mjs';
import { acceptedLoad } from './load.mjs';
import { distribution } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const require = createRequire(path.join(ROOT, 'package.json'));
const FIXTURES = path.join(ROOT, 'libs', 'areas', 'src', 'uae', 'fixtures');

/** A 10-digit TIN (`1` and nine digits) unique enough for one bench database. */
const freshTin = (n) => `1${String((Date.now() + n * 7919) % 1e9).padStart(9, '0')}`;

async function onboard(url, apiKey, tin, name) {
  const response = await fetch(`${url}/v1/participants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey },
    body: JSON.stringify({ peppol_id: `0235:${tin}`, legal_name: name, trn: `${tin}00003`, legal_id: { id: `TL-${tin}`, scheme: 'TL', authority: 'Dubai Economy and Tourism' }, street_address: 'Sheikh Zayed Road 1', city: 'Dubai', emirates_code: 'DXB', country_code: 'AE' }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`UAE onboarding answered ${response.status}: ${text}`);
  return JSON.parse(text).data;
}

export async function uaeLoad({ url, apiKey, db, runId, connections, duration, drainTimeoutS, say }) {
  const seller = await onboard(url, apiKey, freshTin(1), 'Bench Seller LLC');
  const buyer = await onboard(url, apiKey, freshTin(2), 'Bench Buyer LLC');
  const { invoice } = require(path.join(ROOT, 'dist', 'libs', 'areas', 'src', 'uae', 'fixtures', 'bodies.js'));
  const receivingParty = { peppol_id: buyer.peppol_id, legal_name: 'Bench Buyer LLC', street_address: 'Khalifa Street 9', city: 'Abu Dhabi', emirates_code: 'AUH', trn: `${buyer.peppol_id.slice(5)}00003` };
  const load = await acceptedLoad({
    url,
    path: `/v1/participants/${seller.participant_id}/documents`,
    headers: { 'x-svc-auth-key': apiKey },
    connections,
    duration,
    bodyOf: (n) => invoice({ document_identifier: `UAE-${runId}-${n}`, receiving_party: receivingParty }),
    idOf: (body) => /"document_id"\s*:\s*"([0-9a-fA-F-]{36})"/.exec(body)?.[1],
  });
  const ids = load.accepted;
  say(`waiting (up to ${drainTimeoutS} s) until the ${ids.length} accepted UAE documents are delivered and reported`);
  const deadline = Date.now() + drainTimeoutS * 1000;
  let counts;
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*) FILTER (WHERE uae_summary_status(uae_reporting_status(report_state), uae_exchange_status(direction, delivery_status)) = 'completed')::int AS completed,
              count(*) FILTER (WHERE uae_summary_status(uae_reporting_status(report_state), uae_exchange_status(direction, delivery_status)) = 'attention')::int AS attention
       FROM documents WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    counts = rows[0];
    if (counts.completed + counts.attention === ids.length || Date.now() > deadline) break;
    await sleep(250);
  }
  const delivered = await deliveryTimings(db, ids);
  const { rows: reported } = await db.query(
    `SELECT extract(epoch FROM (authority->>'answeredAt')::timestamptz - created_at) * 1000 AS ms
     FROM documents WHERE id = ANY($1::uuid[]) AND report_state = 'reported' AND authority ? 'answeredAt'`,
    [ids],
  );
  return {
    load,
    completed: counts.completed,
    attention: counts.attention,
    complete: counts.completed === ids.length,
    toDelivered: distribution(delivered.submittedToDelivered),
    toReported: distribution(reported.map((r) => Number(r.ms))),
  };
}

/**
 * Our rules (libs/areas/src/uae/rules) and the official Schematron on the same documents: the 32
 * official examples as JSON, parsed and rendered once; ours timed over `rounds` passes, the official
 * stylesheets once per document (they cost hundreds of ms each).
 */
export async function uaeRulesCost({ rounds = 200 } = {}) {
  // The compiled libraries resolve @einvoice/* through the path aliases, as the apps do.
  require(path.join(ROOT, 'scripts', 'register-paths.cjs'));
  const areas = require(path.join(ROOT, 'dist', 'libs', 'areas', 'src', 'uae', 'index.js'));
  const official = require(path.join(ROOT, 'dist', 'libs', 'areas', 'src', 'conformance', 'official-validators.js'));
  const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(path.join(FIXTURES, f), 'utf8')));
  const models = fixtures.map((f) => {
    const parsed = areas.parseUaeDocument(f.request);
    if (!('document' in parsed)) throw new Error(`${f.example}: ${JSON.stringify(parsed.issues)}`);
    const kind = areas.uaeDocumentKind(parsed.document.document_type);
    return { xml: areas.renderUae(parsed.document, f.issuer, { uuid: '00000000-0000-4000-8000-000000000000' }).xml, ruleSet: kind.specification.ruleSetId };
  });
  let issues = 0;
  const oursStarted = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const m of models) issues += areas.checkUaeRules(m.xml).length;
  const oursMs = Number(process.hrtime.bigint() - oursStarted) / 1e6 / (rounds * models.length);
  const officialStarted = process.hrtime.bigint();
  let officialFailures = 0;
  for (const m of models) officialFailures += official.blocking(await official.runSchematron(m.ruleSet, m.xml)).length;
  const officialMs = Number(process.hrtime.bigint() - officialStarted) / 1e6 / models.length;
  return { documents: models.length, oursMs, officialMs, ourIssues: issues / rounds, officialFailures };
}
