// Poland (#13): invoices through POST /pl/einvoice/generate/invoice, spread over several suppliers
// (KSeF's send limits are per seller NIP), then until the sandbox KSeF accepted every one:
// accepted/s, latency, submitted -> Accepted.
import { acceptedLoad } from './load.mjs';
import { distribution } from './stats.mjs';

const WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];
/** The n-th valid NIP of a run (check digit computed; a remainder of 10 is skipped). */
function nipOf(n) {
  for (let k = n; ; k += 1000) {
    const head = String(526_000_000 + k).slice(0, 9);
    const check = WEIGHTS.reduce((sum, w, i) => sum + w * Number(head[i]), 0) % 11;
    if (check !== 10) return `${head}${check}`;
  }
}

async function onboard(url, apiKey, n) {
  const response = await fetch(`${url}/pl/einvoice/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey },
    body: JSON.stringify({ registered_name: `Bench Sp. z o.o. ${n}`, identifiers: [{ scheme: 'PL:NIP', id: nipOf(n) }], street: 'ul. Prosta 1', city: 'Warszawa', postal_code: '00-001', country: 'PL' }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`Polish onboarding answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data.supplier_uuid;
}

const invoice = (ID) => ({
  ID,
  DocumentType: 'Invoice',
  IssueDate: new Date().toISOString().slice(0, 10),
  CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
  InvoiceLines: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } }],
  TotalIncludingVat: 123,
});

export async function ksefLoad({ url, apiKey, db, runId, suppliers, connections, duration, drainTimeoutS }) {
  const ids = [];
  for (let n = 0; n < suppliers; n += 1) ids.push(await onboard(url, apiKey, n));
  const load = await acceptedLoad({
    url,
    path: '/pl/einvoice/generate/invoice',
    headers: { 'x-svc-auth-key': apiKey, transport_mode: 'ksef' },
    headersOf: (n) => ({ supplier_uuid: ids[n % ids.length] }),
    connections,
    duration,
    bodyOf: (n) => invoice(`PL-${runId}-${n}`),
    idOf: (body) => /"DocumentID":"([^"]+)"/.exec(body)?.[1],
  });
  const stoppedAt = Date.now();
  const deadline = stoppedAt + drainTimeoutS * 1000;
  let settled = 0;
  for (;;) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM documents WHERE id = ANY($1::uuid[]) AND report_state IN ('reported', 'rejected', 'invalid')`, [load.accepted]);
    settled = rows[0].n;
    if (settled === load.accepted.length || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const { rows } = await db.query(
    `SELECT state, extract(epoch FROM (coalesce(authority->>'validatedAt', authority->>'answeredAt'))::timestamptz - created_at) * 1000 AS ms
     FROM documents WHERE id = ANY($1::uuid[]) AND report_state IN ('reported', 'rejected', 'invalid')`,
    [load.accepted],
  );
  return {
    load,
    suppliers,
    settled,
    complete: settled === load.accepted.length,
    accepted: rows.filter((r) => r.state === 'reported').length,
    drainS: (Date.now() - stoppedAt) / 1000,
    toAccepted: distribution(rows.filter((r) => r.state === 'reported').map((r) => Number(r.ms))),
  };
}
