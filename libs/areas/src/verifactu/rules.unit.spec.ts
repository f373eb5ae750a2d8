import { checkRecord } from './rules';
import type { VerifactuRectifyBody, VerifactuReportBody } from './schema';

const issuer = { nif: '89890001K', name: 'Empresa de Pruebas SL' };
const body = (extra: Partial<VerifactuReportBody> = {}): VerifactuReportBody =>
  ({
    document_identifier: 'A-1', issue_date: '2026-11-25', invoice_type: 'F1', description: 'x', recipient: { nif: 'B00000000', name: 'Cliente' },
    taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }], total_amount: '121.00', ...extra,
  }) as VerifactuReportBody;
const paths = (b: VerifactuReportBody | VerifactuRectifyBody) => checkRecord(b, issuer).issues.map((i) => i.path);

describe('VeriFactu record rules', () => {
  it('reads both tax-line spellings into the same record', () => {
    const a = checkRecord(body(), issuer).checked;
    const b = checkRecord(body({ taxlines: [{ taxable_base: '100', tax_rate: '21', charged_tax: 21 }] }), issuer).checked;
    expect(a).toEqual(b);
    expect(a).toEqual({ taxLines: [{ base: '100.00', rate: '21.00', charged: '21.00' }], taxTotal: '21.00', total: '121.00' });
  });

  it('wants each of base and charged tax once per line', () => {
    expect(paths(body({ taxlines: [{ tax_base: 100, taxable_base: 100, tax_rate: 21 }] }))).toEqual(['taxlines[0].tax_base', 'taxlines[0].repercutida_quota', 'total_amount']);
  });

  it('takes a total within two cents of the lines, names the expected total otherwise', () => {
    expect(paths(body({ total_amount: '121.02' }))).toEqual([]);
    const { issues } = checkRecord(body({ total_amount: '121.03' }), issuer);
    expect(issues).toEqual([expect.objectContaining({ path: 'total_amount', message: expect.stringContaining('121.00') })]);
  });

  it('wants a recipient on F1, none on F2, and a valid recipient NIF', () => {
    expect(paths(body({ recipient: undefined }))).toEqual(['recipient']);
    expect(paths(body({ invoice_type: 'F2' }))).toEqual(['recipient']);
    expect(paths(body({ recipient: { nif: 'B00000001', name: 'x' } }))).toEqual(['recipient.nif']);
  });

  it('wants the rectify body\'s issuer to be the participant', () => {
    const rectify = { ...body(), invoice_type: 'R1', nif: 'b-00000000', name: issuer.name, rectification_type: 'I', rectified_invoices: [] } as unknown as VerifactuRectifyBody;
    expect(paths(rectify)).toEqual(['nif']);
    expect(paths({ ...rectify, nif: '89890001k', name: 'Other' })).toEqual(['name']);
  });

  it('exempt and not-subject lines charge no tax and may leave it out; an exempt line has no qualification', () => {
    const lines = [
      { tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' },
      { tax_base: 50, tax_rate: 0, exemption: 'E1' },
      { tax_base: 30, tax_rate: 0, qualification: 'N2' },
    ];
    const { issues, checked } = checkRecord(body({ taxlines: lines as never, total_amount: '201.00' }), issuer);
    expect(issues).toEqual([]);
    expect(checked.taxLines[1]).toEqual({ base: '50.00', rate: '0.00', charged: '0.00', exemption: 'E1' });
    expect(paths(body({ taxlines: [{ tax_base: 50, tax_rate: 0, exemption: 'E1', repercutida_quota: 10 }] as never, total_amount: '60.00' }))).toEqual(['taxlines[0].repercutida_quota']);
    expect(paths(body({ taxlines: [{ tax_base: 50, tax_rate: 0, exemption: 'E1', qualification: 'S1', repercutida_quota: 0 }] as never, total_amount: '50.00' }))).toEqual(['taxlines[0].qualification']);
  });
});
