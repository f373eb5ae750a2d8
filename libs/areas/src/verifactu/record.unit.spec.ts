import { aeatDate, chainCancellation, chainRegistration, generationTimestamp, linkOf } from './record';
import { cancellationHash, registrationHash } from './hash';

describe('VeriFactu records', () => {
  it('states the generation time in Spain\'s mainland time, to the second, winter and summer', () => {
    expect(generationTimestamp(new Date('2024-01-01T18:20:30.456Z'))).toBe('2024-01-01T19:20:30+01:00');
    expect(generationTimestamp(new Date('2026-07-01T10:00:00Z'))).toBe('2026-07-01T12:00:00+02:00');
  });

  it('writes dates as the AEAT does', () => {
    expect(aeatDate('2026-11-25')).toBe('25-11-2026');
  });

  it('chains each record on the previous one\'s huella; the first on none', () => {
    const issuer = { nif: '89890001K', name: 'Pruebas' };
    const content = { issuer, number: '1', issueDate: '2024-01-01', invoiceType: 'F2' as const, description: 'x', taxLines: [{ base: '10.00', rate: '21.00', charged: '2.10' }], taxTotal: '2.10', total: '12.10' };
    const at = new Date('2024-01-01T18:20:30Z');
    const first = chainRegistration(content, undefined, at);
    expect(first.previous).toBeUndefined();
    expect(first.hash).toBe(registrationHash({ issuerNif: '89890001K', number: '1', issueDate: '01-01-2024', invoiceType: 'F2', taxTotal: '2.10', total: '12.10', previousHash: '', generatedAt: '2024-01-01T19:20:30+01:00' }));
    const second = chainRegistration({ ...content, number: '2' }, linkOf(first), at);
    expect(second.previous).toEqual({ issuerNif: '89890001K', number: '1', issueDate: '2024-01-01', hash: first.hash });
    const cancelled = chainCancellation(issuer, { number: '1', issueDate: '2024-01-01' }, linkOf(second), at);
    expect(cancelled.hash).toBe(cancellationHash({ issuerNif: '89890001K', number: '1', issueDate: '01-01-2024', previousHash: second.hash, generatedAt: '2024-01-01T19:20:30+01:00' }));
  });
});
