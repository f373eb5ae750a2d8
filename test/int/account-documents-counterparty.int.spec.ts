// #50: the documents list's `counterparty` (apps/gateway/src/account/document-fields.ts counterpartyColumnsSql), read by
// PostgreSQL from each area's first document as its row stores it: the README's first documents' bodies (the OpenAPI
// `first` examples), MyInvois's as its row keeps it (listedFields), a received one's sender as its receipt records it.
import type { DataSource } from 'typeorm';
import { afipExamples, firsExamples, jofotaraExamples, ksefExamples, myinvois, peppolExamples, uae, verifactuExamples } from '@einvoice/areas';
import { counterpartyColumnsSql } from '../../apps/gateway/src/account/document-fields';
import { openTestDatabase } from '../support/database';

type Counterparty = { name: string | null; id: string | null };

describe('#50 the counterparty of a listed document, per area (real PostgreSQL)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  /** The counterparty the list's select reads from one row (no table: the row as VALUES). */
  async function counterpartyOf(area: string, fields: unknown, direction: 'outgoing' | 'incoming' = 'outgoing'): Promise<Counterparty> {
    const [row] = await dataSource.query(`SELECT ${counterpartyColumnsSql('d')} FROM (VALUES ($1::text, $2::text, $3::jsonb)) AS d(area, direction, fields)`, [area, direction, JSON.stringify(fields)]);
    return { name: row.counterparty_name, id: row.counterparty_id };
  }
  const first = (examples: { first?: { value: unknown } }) => examples.first!.value as Record<string, unknown>;

  it('reads the buyer of each area\'s first document', async () => {
    const expected: Record<string, [unknown, Counterparty]> = {
      be: [first(peppolExamples.be.invoice), { name: 'Antwerp Buyer BV', id: 'BE0202239951' }],
      de: [first(peppolExamples.de.invoice), { name: 'Wiener Käufer GmbH', id: 'ATU12345678' }],
      sg: [first(peppolExamples.sg.invoice), { name: 'Marina Buyer Pte Ltd', id: '201912345K' }],
      pl: [first(ksefExamples.generate), { name: 'Nabywca S.A.', id: '1234563218' }],
      // Without a Peppol copy its row keeps a few fields only: the buyer's name and TIN among them.
      my: [myinvois.listedFields(first(myinvois.myInvoisExamples.invoice)), { name: 'Syarikat Pembeli Bhd', id: 'C20880050010' }],
      ae: [first(uae.uaeExamples.document), { name: 'Abu Dhabi Buyer LLC', id: '134567890123003' }],
      es: [first(verifactuExamples.generate), { name: 'Cliente SA', id: 'B00000000' }],
      jo: [first(jofotaraExamples.generate), { name: 'Irbid Buyer', id: '87654321' }],
      ng: [first(firsExamples.generate), { name: 'Abuja Buyer Ltd', id: '87654321-0001' }],
      // AFIP's voucher names its buyer by document type and number only.
      ar: [first(afipExamples.createVoucher), { name: null, id: '30712345671' }],
    };
    const read = Object.fromEntries(await Promise.all(Object.entries(expected).map(async ([area, [fields]]) => [area, await counterpartyOf(area, fields)])));
    expect(read).toEqual(Object.fromEntries(Object.entries(expected).map(([area, [, counterparty]]) => [area, counterparty])));
  });

  it('reads the other party where the area has one, and null where the document does not say', async () => {
    // A MyInvois self-billed document: the onboarded supplier is the buyer, its counterparty the seller it bills for.
    expect(await counterpartyOf('my', myinvois.listedFields(myinvois.myInvoisExamples.selfBilled.smallholder.value as Record<string, unknown>)))
      .toEqual({ name: 'Pekebun Kecil Ahmad', id: 'IG21136626090' });
    // A UAE buyer without a TRN: its Peppol id.
    const { receiving_party: party, ...invoice } = first(uae.uaeExamples.document) as { receiving_party: Record<string, unknown> };
    expect(await counterpartyOf('ae', { ...invoice, receiving_party: { ...party, trn: undefined } })).toEqual({ name: 'Abu Dhabi Buyer LLC', id: '0235:1345678901' });
    // A Spanish simplified invoice (F2) has no recipient; an Argentinian consumidor final (DocTipo 99) is DocNro 0.
    expect(await counterpartyOf('es', { ...first(verifactuExamples.generate), recipient: undefined })).toEqual({ name: null, id: null });
    expect(await counterpartyOf('ar', { ...first(afipExamples.createVoucher), DocTipo: 99, DocNro: 0 })).toEqual({ name: null, id: null });
    // A MyInvois row written before #50 kept no party; an empty name is none.
    expect(await counterpartyOf('my', { IssueDate: '2026-03-15', DocumentCurrencyCode: 'MYR' })).toEqual({ name: null, id: null });
    expect(await counterpartyOf('jo', { buyer_details: { buyer_name: '', buyer_nin: '9991234567' } })).toEqual({ name: null, id: '9991234567' });
    // An area the list does not know: null, never a guess.
    expect(await counterpartyOf('xx', first(peppolExamples.be.invoice))).toEqual({ name: null, id: null });
  });

  it('reads a received document\'s sender, never the buyer its sender\'s fields name', async () => {
    const received = { ...first(peppolExamples.be.invoice), counterparty: { name: 'Brussels Seller NV', id: '0843766574' } };
    expect(await counterpartyOf('be', received, 'incoming')).toEqual({ name: 'Brussels Seller NV', id: '0843766574' });
    // Received before #50: its sender was not recorded.
    expect(await counterpartyOf('be', first(peppolExamples.be.invoice), 'incoming')).toEqual({ name: null, id: null });
  });
});
