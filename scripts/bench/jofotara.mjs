// Jordan (#14): invoices through POST /jo/einvoice/generate, each answered with JoFotara's verdict (the
// gateway waits for the reporting worker's call to the sandbox JoFotara, JOFOTARA_SANDBOX_DELAY_MS per
// answer). A device issues its invoices in sequence, so each client is one device (supplier) sending
// one invoice after the other, numbers increasing; `clients` devices at once. Every answer is checked
// afterwards: each 200 names a uuid JoFotara holds once.
import { distribution } from './stats.mjs';

async function onboard(url, apiKey, runId, n) {
  const response = await fetch(`${url}/jo/supplier/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey },
    body: JSON.stringify({ supplier_name: `Bench JO ${n}`, supplier_tin: String(10_000_000 + n), default_income_source: '4419618', client_id: `bench-${runId}-${n}`, client_secret: 'bench' }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`Jordanian onboarding answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data.participant_id;
}

const invoice = (number) => ({
  invoice_ref_number: number,
  issue_date: new Date().toISOString().slice(0, 10),
  issue_time: '10:30:00',
  buyer_details: { buyer_name: 'مشتري', buyer_tin: '87654321' },
  lineitems: [{ description: 'قلم', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard', discounts: [{ amount: 1, reason: 'promo' }] }],
});

export async function jofotaraLoad({ url, apiKey, db, runId, clients, duration }) {
  const participants = [];
  for (let n = 0; n < clients; n += 1) participants.push(await onboard(url, apiKey, runId, n));
  const latencies = [];
  const uuids = [];
  const statuses = {};
  let firstError;
  const until = Date.now() + duration * 1000;
  const started = Date.now();
  await Promise.all(participants.map(async (participant, device) => {
    for (let i = 1; Date.now() < until; i += 1) {
      const t0 = performance.now();
      const response = await fetch(`${url}/jo/einvoice/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey, 'participant-id': participant },
        body: JSON.stringify(invoice(`JO-${runId}-${device}-${String(i).padStart(8, '0')}`)),
      });
      const text = await response.text();
      latencies.push(performance.now() - t0);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status === 200) uuids.push(JSON.parse(text).message.uuid);
      else if (!firstError) firstError = { status: response.status, body: text };
    }
  }));
  const seconds = (Date.now() - started) / 1000;
  const { rows } = await db.query(`SELECT count(DISTINCT uuid)::int AS held, count(*)::int AS rows FROM jofotara_sandbox_invoices WHERE uuid = ANY($1)`, [uuids]);
  return {
    clients,
    answered: uuids.length,
    perSecond: uuids.length / seconds,
    statuses,
    firstError,
    latency: distribution(latencies),
    heldOnce: rows[0].held === uuids.length && rows[0].rows === uuids.length,
    held: rows[0].held,
  };
}
