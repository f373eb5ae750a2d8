// Argentina (#16): vouchers through POST /ar/einvoice/create-voucher, each answered with the sandbox
// AFIP's CAE. One sequence: every client takes the next number of one point of sale (AFIP's strict
// numbering, the service orders them); many: each client its own point of sale. Every answer is
// checked afterwards: the sequences hold each authorised number once, without gaps.
import { syncLoad } from './sync-load.mjs';

function cuitOf(n) {
  for (let k = n; ; k += 1) {
    const body = `20${String(30_000_000 + k).padStart(8, '0')}`;
    const sum = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2].reduce((total, w, i) => total + w * Number(body[i]), 0);
    const check = 11 - (sum % 11);
    if (check !== 10) return `${body}${check === 11 ? 0 : check}`;
  }
}

const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');
const voucher = (PtoVta, n) => ({
  CantReg: 1, PtoVta, CbteTipo: 6, Concepto: 1, DocTipo: 99, DocNro: 0, CbteDesde: n, CbteHasta: n, CbteFch: today(),
  ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
});

async function onboard(url, apiKey, cuit, clients) {
  const response = await fetch(`${url}/ar/einvoice/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey },
    body: JSON.stringify({ cuit, legal_name: 'Bench SRL', points_of_sale: Array.from({ length: clients + 1 }, (_, i) => i + 1) }),
  });
  if (response.status !== 201) throw new Error(`Argentine onboarding answered ${response.status}: ${await response.text()}`);
}

export async function afipLoad({ url, apiKey, db, runId, clients, duration }) {
  const cuit = cuitOf(Number.parseInt(runId.slice(-6), 36) % 1_000_000);
  await onboard(url, apiKey, cuit, clients);
  const run = async (name, ptoVtaOf) => {
    const next = new Map();
    const load = await syncLoad({
      url, apiKey, duration, header: 'cuit', path: '/ar/einvoice/create-voucher',
      participants: Array.from({ length: clients }, () => cuit),
      bodyOf: (client) => {
        const pto = ptoVtaOf(client);
        const n = (next.get(pto) ?? 0) + 1;
        next.set(pto, n);
        return voucher(pto, n);
      },
      idOf: (body) => (body.Resultado === 'A' ? body.FeDetResp[0].CAE : `R:${JSON.stringify(body.Errors)}`),
    });
    const authorised = load.ids.filter((id) => !id.startsWith('R:')).length;
    const { rows } = await db.query(
      `SELECT pto_vta, count(*)::int AS n, max(cbte_nro) AS last FROM afip_sandbox_vouchers WHERE cuit = $1 AND cbte_tipo = 6 AND pto_vta = ANY($2) GROUP BY pto_vta`,
      [cuit, [...next.keys()]],
    );
    const noGaps = rows.every((r) => r.n === r.last);
    return { name, ...load, authorised, noGaps, stored: rows.reduce((total, r) => total + r.n, 0) };
  };
  const one = await run('one sequence', () => 1);
  const many = await run(`${clients} sequences`, (client) => client + 2);
  return { one, many };
}
