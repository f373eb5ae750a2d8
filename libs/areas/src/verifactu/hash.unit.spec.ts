import { cancellationHash, registrationHash } from './hash';

// The AEAT's own vectors (shared/conformance/README.md "Facts with no file", from
// Veri-Factu_especificaciones_huella_hash_registros.txt): a first record, the next one chained on
// it, and a cancellation chained on the second.
describe('VeriFactu huella (AEAT vectors)', () => {
  const first = registrationHash({
    issuerNif: '89890001K', number: '12345678/G33', issueDate: '01-01-2024', invoiceType: 'F1', taxTotal: '12.35', total: '123.45', previousHash: '', generatedAt: '2024-01-01T19:20:30+01:00',
  });
  const second = registrationHash({
    issuerNif: '89890001K', number: '12345679/G34', issueDate: '01-01-2024', invoiceType: 'F1', taxTotal: '12.35', total: '123.45', previousHash: first, generatedAt: '2024-01-01T19:20:35+01:00',
  });

  it('hashes the first record of a chain', () => {
    expect(first).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
  });

  it('hashes a record chained on the previous one', () => {
    expect(second).toBe('F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97');
  });

  it('hashes a cancellation chained on the previous record', () => {
    expect(cancellationHash({ issuerNif: '89890001K', number: '12345679/G34', issueDate: '01-01-2024', previousHash: second, generatedAt: '2024-01-01T19:20:40+01:00' })).toBe(
      '177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68',
    );
  });

  it('trims each value, as the specification says', () => {
    expect(registrationHash({
      issuerNif: ' 89890001K ', number: ' 12345678/G33', issueDate: '01-01-2024', invoiceType: 'F1', taxTotal: '12.35', total: '123.45 ', previousHash: '', generatedAt: '2024-01-01T19:20:30+01:00',
    })).toBe(first);
  });
});
