// The sandbox KSeF on real PostgreSQL: what it takes is checked in as few runs of the validator as the
// polls allow, whoever polls, and every invoice gets its own verdict once.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../test/support/database';
import { conformanceDir } from '../conformance/location';
import { startOfficialChecks } from '../conformance/runtime';
import type { AuthorityReport } from '../registry/authority';
import { type Fa3Invoice, renderFa3 } from './fa3';
import { isKsefNumber } from './ksef-number';
import { type KsefReceipt, SandboxKsef } from './sandbox-ksef';

const roomy = { perSecond: 1_000, perMinute: 10_000, perHour: 100_000 };

describe('the sandbox KSeF (PostgreSQL state)', () => {
  const run = Date.now().toString(36).toUpperCase();
  let dataSource: DataSource;
  const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => dataSource.query(sql, params);

  const invoice = (number: string): Fa3Invoice => ({
    number,
    issueDate: '2026-11-25',
    currency: 'PLN',
    seller: { nip: '5260250274', name: 'Sprzedawca Sp. z o.o.', address: { country: 'PL', line1: 'ul. Prosta 1', line2: '00-001 Warszawa' } },
    buyer: { name: 'Nabywca S.A.', id: { nip: '1234563218' }, address: { country: 'PL', line1: 'ul. Krzywa 2', line2: '30-001 Kraków' } },
    lines: [{ description: 'Usługa doradcza', quantity: 1, unitPrice: 100, rate: '23' }],
    createdAt: new Date('2026-11-25T10:00:00Z'),
  });
  const report = (number: string, bytes = renderFa3(invoice(number))): AuthorityReport => ({
    reportId: randomUUID(),
    tenantId: randomUUID(),
    supplierId: randomUUID(),
    payload: {},
    document: { bytes, mediaType: 'application/xml', sha256: 'n/a' },
  });
  const taken = async (ksef: SandboxKsef, r: AuthorityReport) => {
    const outcome = await ksef.submit(r);
    if (outcome.kind !== 'accepted') throw new Error(`not taken: ${JSON.stringify(outcome)}`);
    return outcome.receipt as KsefReceipt;
  };
  /** How many times the sandbox ran its processing (one run of the validator each). */
  const runsOf = (ksef: SandboxKsef) => jest.spyOn(ksef as unknown as { processOnce(): Promise<void> }, 'processOnce');

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('polls at once of many invoices taken are answered by one run of the validator, not one run each', async () => {
    // The runs that checked something, seen by their one UPDATE of the invoices they numbered or refused.
    const checkingRuns: unknown[][] = [];
    const counted = <T>(sql: string, params?: unknown[]): Promise<T[]> => {
      if (/^\s*UPDATE ksef_sandbox_invoices\b/.test(sql)) checkingRuns.push(params ?? []);
      return query<T>(sql, params);
    };
    const ksef = new SandboxKsef(counted, roomy);
    const reports = Array.from({ length: 30 }, (_, i) => report(`FV/${run}/A/${i}`));
    const receipts: KsefReceipt[] = [];
    for (const r of reports) receipts.push(await taken(ksef, r));
    checkingRuns.length = 0;

    const verdicts = await Promise.all(reports.map((r, i) => ksef.poll(r, receipts[i])));

    expect(verdicts.map((v) => v.kind)).toEqual(reports.map(() => 'accepted'));
    const numbers = verdicts.map((v) => (v.kind === 'accepted' ? (v.receipt as KsefReceipt).ksefNumber : undefined));
    expect(numbers.every((n) => n !== undefined && isKsefNumber(n))).toBe(true);
    expect(new Set(numbers).size).toBe(reports.length);
    // The first poll's run checks all 30 at once; a poll that asks after it (how many do depends on the
    // machine's pace) starts a run that finds nothing left, and checks nothing.
    expect(checkingRuns).toHaveLength(1);
  });

  it('an invoice taken while a run is in progress is checked by the next run; a refusal stays its own', async () => {
    const ksef = new SandboxKsef(query, roomy);
    const first = report(`FV/${run}/B/1`);
    const firstReceipt = await taken(ksef, first);
    const runs = runsOf(ksef);
    const firstVerdict = ksef.poll(first, firstReceipt);
    // Taken after the first poll began its run (which may or may not have read it already).
    const late = report(`KSEF-REJECT-${run}-B-2`);
    const lateReceipt = await taken(ksef, late);
    const [a, b] = await Promise.all([firstVerdict, ksef.poll(late, lateReceipt)]);

    expect(a.kind).toBe('accepted');
    expect(b).toMatchObject({ kind: 'rejected', error: { code: '450' } });
    expect(runs.mock.calls.length).toBeLessThanOrEqual(2);
  });

  describe('#44 with CONFORMANCE_DIR set, the Ministry\'s XSD as well as the own check', () => {
    afterEach(() => startOfficialChecks({}));
    /** P_2 before P_1: the schema's order broken, which the own structural check does not look at. */
    const outOfOrder = (number: string) => renderFa3(invoice(number)).replace(/(<P_1>[^<]*<\/P_1>)(\s*)(<P_2>[^<]*<\/P_2>)/, '$3$2$1');

    it('an invoice only the XSD refuses: numbered with the official checks off, refused (450) with them on', async () => {
      const ksef = new SandboxKsef(query, roomy);
      const off = report(`FV/${run}/D/1`, outOfOrder(`FV/${run}/D/1`));
      expect(await ksef.poll(off, await taken(ksef, off))).toMatchObject({ kind: 'accepted' });

      expect(startOfficialChecks({ CONFORMANCE_DIR: conformanceDir })).toMatchObject({ on: true, checks: expect.arrayContaining(['KSeF FA(3) XSD']) });
      const on = report(`FV/${run}/D/2`, outOfOrder(`FV/${run}/D/2`));
      const verdict = await ksef.poll(on, await taken(ksef, on));
      expect(verdict).toMatchObject({ kind: 'rejected', error: { code: '450', message: expect.stringMatching(/^Błąd weryfikacji semantyki dokumentu faktury: .*P_2/) } });
    });
  });

  it('two processes polling the same invoices: each is numbered once', async () => {
    const [one, two] = [new SandboxKsef(query, roomy), new SandboxKsef(query, roomy)];
    const reports = Array.from({ length: 10 }, (_, i) => report(`FV/${run}/C/${i}`));
    const receipts: KsefReceipt[] = [];
    for (const r of reports) receipts.push(await taken(one, r));

    const [byOne, byTwo] = await Promise.all([one, two].map((ksef) => Promise.all(reports.map((r, i) => ksef.poll(r, receipts[i])))));

    const numberOf = (v: (typeof byOne)[number]) => (v.kind === 'accepted' ? (v.receipt as KsefReceipt).ksefNumber : v.kind);
    expect(byOne.map(numberOf)).toEqual(byTwo.map(numberOf));
    const stored = await query<{ n: number }>(`SELECT count(DISTINCT ksef_number)::int AS n FROM ksef_sandbox_invoices WHERE reference_number = ANY($1::text[])`, [receipts.map((r) => r.referenceNumber)]);
    expect(stored[0].n).toBe(reports.length);
  });
});
