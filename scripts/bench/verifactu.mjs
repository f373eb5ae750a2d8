// Spain (#12): VeriFactu records through POST /es/verifactu/generate, for one issuer (one chain:
// every record links on the previous one, so the issuer's records serialise) and spread over many
// issuers (one chain each), then until the sandbox AEAT answered every record.
import { acceptedLoad } from './load.mjs';
import { distribution } from './stats.mjs';

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
/** A valid DNI-form NIF for issuer `n` (the control letter computed as the AEAT checks it). */
const nifOf = (n) => {
  const digits = String(10_000_000 + n).padStart(8, '0');
  return `${digits}${DNI_LETTERS[Number(digits) % 23]}`;
};

async function onboard(url, apiKey, n) {
  const response = await fetch(`${url}/es/verifactu/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey },
    body: JSON.stringify({ nif: nifOf(n), name: `Bench Emisor ${n}` }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`Spanish onboarding answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data.participant_id;
}

const record = (id) => ({
  document_identifier: id,
  issue_date: new Date().toISOString().slice(0, 10),
  invoice_type: 'F1',
  description: 'Bench consulting',
  recipient: { nif: 'B00000000', name: 'Cliente SA' },
  taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }],
  total_amount: '121.00',
});

/** One load: records/s, latency, every record answered by the AEAT (submitted -> answered). */
async function load({ url, apiKey, db, runId, label, issuers, connections, duration, drainTimeoutS, say, pauseWorkers }) {
  const ids = [];
  for (let n = 0; n < issuers; n += 1) ids.push(await onboard(url, apiKey, n + (label === 'one' ? 0 : 1000)));
  // The gateway alone first (the workers paused, as the accept phase): the reporting worker's XSD
  // checks and sandbox AEAT would share the two cores; then the AEAT's side, timed on its own.
  pauseWorkers(true);
  let result;
  try {
    result = await acceptedLoad({
    url,
    path: '/es/verifactu/generate',
    headers: { 'x-svc-auth-key': apiKey },
    headersOf: (n) => ({ 'participant-id': ids[n % ids.length] }),
    connections,
    duration,
    expectedStatus: 200,
    bodyOf: (n) => record(`ES-${runId}-${label}-${n}`),
    idOf: (body) => /"uuid":"([^"]+)"/.exec(body)?.[1],
    });
  } finally {
    pauseWorkers(false);
  }
  const resumedAt = Date.now();
  const deadline = Date.now() + drainTimeoutS * 1000;
  let answered = 0;
  for (;;) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM documents WHERE id = ANY($1::uuid[]) AND report_state <> 'pending'`, [result.accepted]);
    answered = rows[0].n;
    if (answered === result.accepted.length || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const drainS = (Date.now() - resumedAt) / 1000;
  const { rows: timings } = await db.query(
    `SELECT extract(epoch FROM (authority->>'answeredAt')::timestamptz - created_at) * 1000 AS ms, state
     FROM documents WHERE id = ANY($1::uuid[]) AND authority ? 'answeredAt'`,
    [result.accepted],
  );
  const { rows: chains } = await db.query(
    `SELECT count(*)::int AS links, count(DISTINCT stream_id)::int AS chains FROM events WHERE type = 'DocumentChained' AND data->>'documentId' = ANY($1::text[])`,
    [result.accepted],
  );
  return {
    load: result,
    issuers,
    answered,
    drainS,
    complete: answered === result.accepted.length,
    reported: timings.filter((t) => t.state === 'reported').length,
    toAnswered: distribution(timings.map((t) => Number(t.ms))),
    links: chains[0].links,
    chains: chains[0].chains,
  };
}

/** One issuer, then `manyIssuers` issuers, `duration` s each. */
export async function verifactuLoad({ url, apiKey, db, runId, connections, duration, manyIssuers, drainTimeoutS, say, pauseWorkers }) {
  say(`Spain: one issuer (one chain), ${connections} connections, ${duration} s`);
  const one = await load({ url, apiKey, db, runId, label: 'one', issuers: 1, connections, duration, drainTimeoutS, say, pauseWorkers });
  say(`Spain: ${manyIssuers} issuers (a chain each), ${connections} connections, ${duration} s`);
  const many = await load({ url, apiKey, db, runId, label: 'many', issuers: manyIssuers, connections, duration, drainTimeoutS, say, pauseWorkers });
  return { one, many };
}
