// #44 The sandbox AEAT's own structural check of RegFactuSistemaFacturacion (submission-check.ts): no
// file outside the repository; a message the AEAT's schema refuses is refused whole (4102). The AEAT's
// XSD agrees on every kind of record the area makes (soap.conformance.int.spec.ts).
import { type RegistrationContent, chainCancellation, chainRegistration, linkOf } from './record';
import { schemaProblems } from './schema-check';
import { type InvoicingSystem, submissionXml } from './soap';
import { submissionProblems } from './submission-check';

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
  taxLines: [{ base: '100.00', rate: '21.00', charged: '21.00' }],
  taxTotal: '21.00',
  total: '121.00',
};
const first = chainRegistration(f1, undefined, at);
const good = submissionXml(issuer, [first, chainCancellation(issuer, { number: f1.number, issueDate: f1.issueDate }, linkOf(first), at)], system);

describe('#44 the sandbox AEAT\'s own check of the message', () => {
  it('passes what the area sends: a registration and a cancellation, chained', async () => {
    expect(submissionProblems(good)).toEqual([]);
    // CONFORMANCE_DIR is not set here: the own check alone.
    expect(await schemaProblems(good)).toEqual([]);
  });

  it.each([
    ['an issuer NIF of 8 characters', submissionXml({ ...issuer, nif: '8989001K' }, [first], system), /ObligadoEmision\/NIF '8989001K' is not a NIF of 9 characters/],
    ['a recipient NIF in lower case', submissionXml(issuer, [chainRegistration({ ...f1, recipient: { nif: 'b00000000', name: 'Cliente SA' } }, undefined, at)], system), /IDDestinatario\/NIF 'b00000000'/],
    ['an amount with 3 decimals', submissionXml(issuer, [{ ...first, total: '121.005' }], system), /ImporteTotal '121.005' is not an amount/],
    ['an invoice type the AEAT does not know', submissionXml(issuer, [{ ...first, invoiceType: 'F9' as 'F1' }], system), /TipoFactura 'F9'/],
    ['a number with characters beyond printable ASCII', submissionXml(issuer, [{ ...first, number: 'Nº-1' }], system), /NumSerieFactura 'Nº-1' is not 1 to 60 printable ASCII/],
    ['no description', submissionXml(issuer, [{ ...first, description: '' }], system), /DescripcionOperacion is required/],
    ['no huella', submissionXml(issuer, [{ ...first, hash: '' }], system), /RegistroAlta\/Huella is required/],
    ['an issue date that is not dd-mm-yyyy', good.replace('<sum1:FechaExpedicionFactura>25-11-2026</sum1:FechaExpedicionFactura>', '<sum1:FechaExpedicionFactura>2026-11-25</sum1:FechaExpedicionFactura>'), /FechaExpedicionFactura '2026-11-25' is not a date dd-mm-yyyy/],
    ['the wrong namespace', good.replace(/SuministroLR\.xsd/g, 'SuministroLR2.xsd'), /namespace/],
    ['no record', good.replace(/<sum:RegistroFactura>[\s\S]*<\/sum:RegistroFactura>/, ''), /holds 1 to 1000 RegistroFactura, not 0/],
  ])('refuses %s', async (_name, xml, expected) => {
    expect(submissionProblems(xml).join('\n')).toMatch(expected);
    expect((await schemaProblems(xml)).join('\n')).toMatch(expected);
  });
});
