// Nigeria (#15): invoices through POST /api/invoice/generate, each answered once FIRS (the sandbox,
// FIRS_SANDBOX_DELAY_MS per signing) validated the IRN and the invoice and signed it. Every answer is
// checked afterwards: each IRN answered is signed by FIRS once.
import { syncLoad } from './sync-load.mjs';

async function onboard(url, apiKey, runId, n) {
  const response = await fetch(`${url}/api/auth/taxpayer/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey },
    body: JSON.stringify({ party_name: `Bench NG ${n}`, tin: `${String(10_000_000 + n)}-${runId.slice(-4)}`, email: `bench${n}@example.com`, password: 'bench', business_description: 'Bench', postal_address: { country: 'NG' } }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`Nigerian onboarding answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data.participant_id;
}

const invoice = (documentIdentifier) => ({
  document_identifier: documentIdentifier, issue_date: new Date().toISOString().slice(0, 10), issue_time: '10:00:00', invoice_type_code: '380',
  accounting_customer_party: { party_name: 'Buyer Ltd', tin: '87654321-0001', email: 'ap@buyer.example', postal_address: { country: 'NG' } },
  invoice_line: [{ hsn_code: 'CC-001', product_category: 'Electronics', invoiced_quantity: 2, line_extension_amount: 200, item: { name: 'Router' }, price: { price_amount: 100 } }],
  tax_total: [{ tax_amount: 15, tax_subtotal: [{ taxable_amount: 200, tax_amount: 15, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }],
});

export async function firsLoad({ url, apiKey, db, runId, clients, duration }) {
  const participants = [];
  for (let n = 0; n < clients; n += 1) participants.push(await onboard(url, apiKey, runId, n));
  const load = await syncLoad({
    url, apiKey, participants, duration, path: '/api/invoice/generate',
    bodyOf: (client, i) => invoice(`NG${runId}${client}x${i}`),
    idOf: (body) => body.data.irn,
  });
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM firs_sandbox_signed WHERE irn = ANY($1)`, [load.ids]);
  return { ...load, signedOnce: rows[0].n === load.answered && new Set(load.ids).size === load.answered, signed: rows[0].n };
}
