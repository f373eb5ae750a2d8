// The AEAT message we send, against the AEAT's own schemas (shared/conformance/verifactu): every
// kind of record the area makes (F1, F2, R1, a cancellation), chained, in one message and alone.
import { type InvoicingSystem, soapRequest, submissionXml } from './soap';
import { type RegistrationContent, chainCancellation, chainRegistration, linkOf } from './record';
import { conformanceDir } from '../conformance/location';
import { startOfficialChecks } from '../conformance/runtime';
import { schemaProblems } from './schema-check';
import { submissionProblems } from './submission-check';
import { submissionOracle } from './testing/submission-oracle';

const issuer = { nif: '89890001K', name: 'Empresa de Pruebas SL' };
const system: InvoicingSystem = { producer: { nif: 'B00000000', name: 'einvoice gateway' }, name: 'einvoice-gateway', id: 'EG', version: '1.0', installation: 'test-1' };
const at = new Date('2026-11-25T10:00:00Z');

const f1: RegistrationContent = {
  issuer,
  number: 'A-2026-0001',
  issueDate: '2026-11-25',
  invoiceType: 'F1',
  description: 'Consulting, November',
  recipient: { nif: 'B00000000', name: 'Cliente SA' },
  taxLines: [
    { base: '100.00', rate: '21.00', charged: '21.00' },
    { base: '50.00', rate: '10.00', charged: '5.00' },
  ],
  taxTotal: '26.00',
  total: '176.00',
};
const f2: RegistrationContent = { ...f1, number: 'T-2026-0001', invoiceType: 'F2', recipient: undefined, taxLines: [{ base: '10.00', rate: '21.00', charged: '2.10' }], taxTotal: '2.10', total: '12.10' };
const r1: RegistrationContent = {
  ...f1,
  number: 'R-2026-0001',
  invoiceType: 'R1',
  rectification: { type: 'I', invoices: [{ number: 'A-2026-0001', issueDate: '2026-11-25' }] },
  previousRejection: 'S',
};

/** Valid for the AEAT's XSD, and for the sandbox's own structural check (submission-check.ts) alike. */
async function expectValid(xml: string) {
  const result = await submissionOracle(xml);
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
  expect(submissionProblems(xml)).toEqual([]);
}

describe('VeriFactu RegFactuSistemaFacturacion against SuministroLR.xsd', () => {
  const first = chainRegistration(f1, undefined, at);
  const second = chainRegistration(f2, linkOf(first), at);
  const third = chainRegistration(r1, linkOf(second), at);
  const cancelled = chainCancellation(issuer, { number: 'A-2026-0001', issueDate: '2026-11-25' }, linkOf(third), at);

  it.each([
    ['F1, the first record of the chain (PrimerRegistro)', first],
    ['F2, simplified, no recipient', second],
    ['R1 with the rectified invoice, a corrected re-send of a rejected record', third],
    ['a cancellation (RegistroAnulacion)', cancelled],
  ])('%s is valid alone', async (_name, record) => {
    await expectValid(submissionXml(issuer, [record], system));
  });

  it('the four chained in one message are valid, each naming the previous record and its huella', async () => {
    const xml = submissionXml(issuer, [first, second, third, cancelled], system);
    await expectValid(xml);
    expect(xml).toContain('<sum1:PrimerRegistro>S</sum1:PrimerRegistro>');
    expect(xml).toContain(`<sum1:Huella>${first.hash}</sum1:Huella>`);
    expect(xml.match(/<sum1:RegistroAnterior>/g)).toHaveLength(3);
  });

  it('exempt (E1), not subject (N1) and reverse-charge (S2) lines are valid, without rate or tax where the AEAT wants none', async () => {
    const mixed = chainRegistration({
      ...f1,
      number: 'M-2026-0001',
      taxLines: [
        { base: '100.00', rate: '21.00', charged: '21.00' },
        { base: '50.00', rate: '0.00', charged: '0.00', exemption: 'E1' },
        { base: '30.00', rate: '0.00', charged: '0.00', qualification: 'N1' },
        { base: '20.00', rate: '21.00', charged: '0.00', qualification: 'S2' },
      ],
      taxTotal: '21.00',
      total: '221.00',
    }, undefined, at);
    const xml = submissionXml(issuer, [mixed], system);
    await expectValid(xml);
    expect(xml).toContain('<sum1:OperacionExenta>E1</sum1:OperacionExenta>');
    expect(xml).toContain('<sum1:CalificacionOperacion>N1</sum1:CalificacionOperacion>');
    expect(xml.match(/<sum1:TipoImpositivo>/g)).toHaveLength(2);
  });

  it('the schema refuses what the AEAT would (a checker that cannot fail is no checker)', async () => {
    const broken = submissionXml(issuer, [{ ...first, invoiceType: 'F9' as 'F1' }], system);
    const result = await submissionOracle(broken);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/TipoFactura/);
    expect(submissionProblems(broken).join('\n')).toMatch(/TipoFactura 'F9'/);
  });

  it('#44 with CONFORMANCE_DIR set, the AEAT\'s XSD runs as well as the own check (what only the XSD sees: element order)', async () => {
    const swapped = submissionXml(issuer, [first], system).replace(/(<sum1:CuotaTotal>[^<]*<\/sum1:CuotaTotal>)(\s*)(<sum1:ImporteTotal>[^<]*<\/sum1:ImporteTotal>)/, '$3$2$1');
    try {
      expect(await schemaProblems(swapped)).toEqual([]);
      startOfficialChecks({ CONFORMANCE_DIR: conformanceDir });
      expect((await schemaProblems(swapped)).join('\n')).toMatch(/ImporteTotal/);
    } finally {
      startOfficialChecks({});
    }
  });

  it('the SOAP request carries the same message in its body', () => {
    const soap = soapRequest(issuer, [first], system);
    expect(soap).toContain('<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">');
    expect(soap).toContain('<sum:RegFactuSistemaFacturacion');
  });

  it('a message holds 1 to 1000 records', () => {
    expect(() => submissionXml(issuer, [], system)).toThrow(RangeError);
    expect(() => submissionXml(issuer, Array.from({ length: 1001 }, () => first), system)).toThrow(RangeError);
  });
});
