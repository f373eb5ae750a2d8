// Jordan (#14): invoices through POST /jo/einvoice/generate, each answered with JoFotara's verdict (the
// gateway waits for the reporting worker's call to the sandbox JoFotara, JOFOTARA_SANDBOX_DELAY_MS per
// answer). A device issues its invoices in sequence, so each client is one device (supplier) sending
// one invoice after the other, numbers increasing; `clients` devices at once. Every answer is checked
// afterwards: each 200 names a uuid JoFotara holds once.
import { syncLoad } from './sync-load.mjs';

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
  const load = await syncLoad({
    url, apiKey, participants, duration, path: '/jo/einvoice/generate',
    bodyOf: (device, i) => invoice(`JO-${runId}-${device}-${String(i).padStart(8, '0')}`),
    idOf: (body) => body.message.uuid,
  });
  const { rows } = await db.query(`SELECT count(DISTINCT uuid)::int AS held, count(*)::int AS rows FROM jofotara_sandbox_invoices WHERE uuid = ANY($1)`, [load.ids]);
  return { ...load, heldOnce: rows[0].held === load.answered && rows[0].rows === load.answered, held: rows[0].held };
}
