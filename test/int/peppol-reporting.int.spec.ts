// #46 Peppol Reporting: exchanges recorded by the projection of the delivery outcomes, a month's TSR and
// EUSR counted and officially valid, and sent once over the one delivery path.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  type DocumentSubmittedData,
  type PeppolExchangeFacts,
  type RecordedEvent,
  createLogger,
  documentDecider,
  documentStreamId,
} from '@einvoice/domain';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { peppolReporting } from '@einvoice/areas';
import { SANDBOX_TRANSPORT, SandboxAccessPoint } from '../../apps/delivery-worker/src/access-point/sandbox-access-point';
import { createDeliveryHandler } from '../../apps/delivery-worker/src/deliver-document';
import { listReports, previewReports, sendReports } from '../../apps/gateway/src/operations/peppol-reports';
import { openTestDatabase } from '../support/database';
import { MINIMAL_PEPPOL_INVOICE, documentSubmitted } from '../support/fixtures';
import { validateReport } from '../support/peppol-reporting-oracle';

const BIS_INVOICE = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BIS_CREDIT_NOTE = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const PINT_MY = 'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@my-1::2.1';
const BIS_PROCESS = 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const PINT_PROCESS = 'cenbii-procid-ubl::urn:peppol:bis:billing';
const AS4 = 'peppol-transport-as4-v2_0';

const log = createLogger('peppol-reporting-int', 'error');
const ctx = { topic: 't', partition: 0, offset: '0', attempt: 1, headers: {}, heartbeat: async () => undefined };
const participant = (id: string) => `iso6523-actorid-upis::9925:${id}`;

describe('#46 Peppol Reporting over real PostgreSQL', () => {
  let dataSource: DataSource;
  let store: EventStore;
  const query = <T>(sql: string, params?: unknown[]) => dataSource.query(sql, params) as Promise<T[]>;
  const transmissionOf = (documentId: string) =>
    query<Record<string, unknown>>(`SELECT direction, document_type_id, process_id, transport_profile, other_access_point, country_c1, country_c4, end_user_id::text
                                    FROM peppol_transmissions WHERE document_id = $1`, [documentId]);

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase(`peppolrep${Date.now().toString(36)}`));
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  describe('the delivery worker states what the reports need; the projection records it', () => {
    const deliver = () => createDeliveryHandler({ store, accessPoint: new SandboxAccessPoint(store), groupId: `peppolrep-${randomUUID()}`, log });
    const submit = async (data: DocumentSubmittedData): Promise<RecordedEvent> => {
      const [event] = await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }, { newStream: true }));
      return event;
    };

    it('a document sent to another access point: its type, process, C1, transport, C3 and end user', async () => {
      const data = documentSubmitted({ countryC1: 'BE' });
      await deliver()(await submit(data), ctx);
      expect(await transmissionOf(data.documentId)).toEqual([{
        direction: 'outgoing', document_type_id: BIS_INVOICE, process_id: BIS_PROCESS, transport_profile: SANDBOX_TRANSPORT.profile,
        other_access_point: SANDBOX_TRANSPORT.otherAccessPoint, country_c1: 'BE', country_c4: null, end_user_id: data.supplierId,
      }]);
    });

    it('a document handed over to a participant hosted here: both sides recorded, no transport (not counted)', async () => {
      const receiver = participant(`hosted-${randomUUID()}`);
      const receivingSupplier = randomUUID();
      const tenant = randomUUID();
      await query(`INSERT INTO suppliers (id, tenant_id, area, registered_name, profile, created_at, version) VALUES ($1, $2, 'de', 'Berliner Teile GmbH', $3, now(), 1)`,
        [receivingSupplier, tenant, { registeredName: 'Berliner Teile GmbH', identifiers: [], country: 'DE' }]);
      await query(`INSERT INTO supplier_participants (participant_id, supplier_id, tenant_id) VALUES ($1, $2, $3)`, [receiver, receivingSupplier, tenant]);
      const data = documentSubmitted({ countryC1: 'BE', receiverParticipantId: receiver });
      await deliver()(await submit(data), ctx);
      const [received] = await query<{ id: string }>(`SELECT id FROM documents WHERE source_document_id = $1`, [data.documentId]);
      expect(await transmissionOf(data.documentId)).toMatchObject([{ direction: 'outgoing', transport_profile: null, other_access_point: null, country_c1: 'BE', country_c4: 'DE', end_user_id: data.supplierId }]);
      expect(await transmissionOf(received.id)).toMatchObject([{ direction: 'incoming', transport_profile: null, country_c1: 'BE', country_c4: 'DE', end_user_id: receivingSupplier }]);
    });

    it('a document the receiver refused (MLS RE) did cross the network: recorded; one not found: not', async () => {
      const rejected = documentSubmitted({ receiverParticipantId: participant('be0000000097') });
      const unknown = documentSubmitted({ receiverParticipantId: participant('be0000000196') });
      await deliver()(await submit(rejected), ctx);
      await deliver()(await submit(unknown), ctx);
      expect(await transmissionOf(rejected.documentId)).toMatchObject([{ direction: 'outgoing', transport_profile: AS4 }]);
      expect(await transmissionOf(unknown.documentId)).toEqual([]);
    });
  });

  describe('a month of exchanges', () => {
    // A month of its own (no other test records exchanges then): a random one of the last century.
    const year = 1950 + Math.floor(Math.random() * 50);
    const month = `${year}-0${1 + Math.floor(Math.random() * 9)}`;
    const at = (day: number) => `${month}-${String(day).padStart(2, '0')}T12:00:00.000Z`;
    const facts = (f: Partial<PeppolExchangeFacts> & Pick<PeppolExchangeFacts, 'documentTypeId' | 'countryC1'>): PeppolExchangeFacts => ({
      processId: f.documentTypeId === PINT_MY ? PINT_PROCESS : BIS_PROCESS, senderParticipantId: participant('s'), receiverParticipantId: participant('r'), ...f,
    });
    const A = randomUUID(); // BE: sends 3 invoices and a credit note to PDE000001, receives 1 from there
    const B = randomUUID(); // BE: sends 1 invoice to PNL000002 (refused: MLS RE), hands one over here
    const C = randomUUID(); // MY: sends 1 PINT MY invoice to PMY000003
    const D = randomUUID(); // BE: receives 1 invoice from PDE000001 and 1 from PNL000002

    /** An outgoing exchange as the delivery worker records it: the submission, then its outcome. */
    async function sent(supplierId: string, peppol: PeppolExchangeFacts, day: number, outcome: 'delivered' | 'refused' = 'delivered'): Promise<void> {
      const data = documentSubmitted({ supplierId, countryC1: peppol.countryC1, submittedAt: at(day) });
      await store.transaction(async (uow) => {
        const stream = documentStreamId(data.documentId);
        await handleCommand(uow, documentDecider, stream, { type: 'SubmitDocument', data }, { tenantId: data.tenantId }, { newStream: true });
      });
      await store.transaction(async (uow) => {
        const stream = documentStreamId(data.documentId);
        if (outcome === 'refused') {
          const mls = { responseCode: 'RE' as const, reasonCode: 'BV' as const, receivedAt: at(day) };
          await handleCommand(uow, documentDecider, stream, { type: 'RecordDeliveryFailure', data: { documentId: data.documentId, receiverParticipantId: data.receiverParticipantId, reason: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'BV' }, mls, peppol, failedAt: at(day) } }, { tenantId: data.tenantId });
          return;
        }
        await handleCommand(uow, documentDecider, stream, {
          type: 'RecordDelivery',
          data: { documentId: data.documentId, receiverParticipantId: data.receiverParticipantId as string, channel: peppol.transport ? 'remote' : 'local', messageId: `${data.documentId}@test`, mls: { responseCode: 'AP', receivedAt: at(day) }, peppol, deliveredAt: at(day) },
        }, { tenantId: data.tenantId });
      });
    }

    /** An incoming exchange as the inbound route records it (#46 contract: docs/peppol-as4.md). */
    async function received(supplierId: string, peppol: PeppolExchangeFacts, day: number): Promise<void> {
      const documentId = randomUUID();
      const tenantId = randomUUID();
      await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(documentId), {
        type: 'ReceiveDocument',
        data: {
          documentId, tenantId, supplierId, area: 'be', documentNumber: `R-${documentId.slice(0, 8)}`, documentType: '380', senderParticipantId: peppol.senderParticipantId,
          receiverParticipantId: peppol.receiverParticipantId, sourceDocumentId: null, messageId: `${documentId}@c2`, fields: {}, xml: MINIMAL_PEPPOL_INVOICE, peppol, receivedAt: at(day),
        },
      }, { tenantId }, { newStream: true }));
    }

    beforeAll(async () => {
      const toDe = { profile: AS4, otherAccessPoint: 'PDE000001' };
      const toNl = { profile: AS4, otherAccessPoint: 'PNL000002' };
      for (const day of [1, 2, 28]) await sent(A, facts({ documentTypeId: BIS_INVOICE, countryC1: 'BE', transport: toDe }), day);
      await sent(A, facts({ documentTypeId: BIS_CREDIT_NOTE, countryC1: 'BE', transport: toDe }), 3);
      await sent(B, facts({ documentTypeId: BIS_INVOICE, countryC1: 'BE', transport: toNl }), 4, 'refused');
      await sent(B, facts({ documentTypeId: BIS_INVOICE, countryC1: 'BE', countryC4: 'BE' }), 5);
      await sent(C, facts({ documentTypeId: PINT_MY, countryC1: 'MY', transport: { profile: AS4, otherAccessPoint: 'PMY000003' } }), 6);
      await received(A, facts({ documentTypeId: BIS_INVOICE, countryC1: 'DE', countryC4: 'BE', transport: toDe }), 7);
      await received(D, facts({ documentTypeId: BIS_INVOICE, countryC1: 'DE', countryC4: 'BE', transport: toDe }), 8);
      await received(D, facts({ documentTypeId: BIS_INVOICE, countryC1: 'NL', countryC4: 'BE', transport: toNl }), 9);
      // The next month's first instant belongs to the next month.
      const next = peppolReporting.reportingPeriod(month)!.until.toISOString();
      const later = documentSubmitted({ supplierId: A, countryC1: 'BE' });
      await store.transaction(async (uow) => {
        const stream = documentStreamId(later.documentId);
        await handleCommand(uow, documentDecider, stream, { type: 'SubmitDocument', data: later }, { tenantId: later.tenantId }, { newStream: true });
        await handleCommand(uow, documentDecider, stream, {
          type: 'RecordDelivery',
          data: { documentId: later.documentId, receiverParticipantId: later.receiverParticipantId as string, channel: 'remote', messageId: 'm', mls: { responseCode: 'AP', receivedAt: next },
            peppol: facts({ documentTypeId: BIS_INVOICE, countryC1: 'BE', transport: toDe }), deliveredAt: next },
        }, { tenantId: later.tenantId });
      });
    }, 60_000);

    it('counts as counted by hand, and passes the official XSD and Schematron', async () => {
      const reports = await previewReports(query, month, { seatId: 'PBE000123' });
      const tsr = reports.tsr.statistics;
      // Out: A 4 (3 invoices, 1 credit note), B 1 (refused, but transported), C 1; in: A 1, D 2. B's hand-over and next month's: no.
      expect(tsr.total).toEqual({ incoming: 3, outgoing: 6 });
      const subtotal = (type: string, ...values: string[]) =>
        tsr.subtotals.filter((s) => s.type === type && s.keys.map((k) => k.value).join('|') === values.join('|')).map((s) => [s.incoming, s.outgoing]);
      const v = (id: string) => peppolReporting.splitIdentifier(id).value;
      expect(subtotal('PerTP', AS4)).toEqual([[3, 6]]);
      expect(subtotal('PerSP-DT-PR', 'PDE000001', v(BIS_INVOICE), v(BIS_PROCESS))).toEqual([[2, 3]]);
      expect(subtotal('PerSP-DT-PR', 'PDE000001', v(BIS_CREDIT_NOTE), v(BIS_PROCESS))).toEqual([[0, 1]]);
      expect(subtotal('PerSP-DT-PR', 'PNL000002', v(BIS_INVOICE), v(BIS_PROCESS))).toEqual([[1, 1]]);
      expect(subtotal('PerSP-DT-PR', 'PMY000003', v(PINT_MY), v(PINT_PROCESS))).toEqual([[0, 1]]);
      expect(subtotal('PerSP-DT-PR-CC', 'PDE000001', v(BIS_INVOICE), v(BIS_PROCESS), 'DE', 'BE')).toEqual([[2, 0]]);
      expect(subtotal('PerSP-DT-PR-CC', 'PNL000002', v(BIS_INVOICE), v(BIS_PROCESS), 'NL', 'BE')).toEqual([[1, 0]]);
      expect(tsr.subtotals).toHaveLength(7);
      // Sending A, B, C; receiving A, D; either A, B, C, D.
      expect(reports.eusr.statistics.fullSet).toEqual({ sending: 3, receiving: 2, sendingOrReceiving: 4 });
      const perCountry = reports.eusr.statistics.subsets.filter((s) => s.type === 'PerEUC').map((s) => [s.keys[0].value, s.sending, s.receiving, s.sendingOrReceiving]);
      expect(perCountry).toEqual([['BE', 2, 2, 3], ['MY', 1, 0, 1]]);
      expect(await validateReport('tsr', reports.tsr.xml)).toEqual({ xsdErrors: [], schematron: [] });
      expect(await validateReport('eusr', reports.eusr.xml)).toEqual({ xsdErrors: [], schematron: [] });
    });

    it('sends both reports once over the delivery path, again only when asked; the reports count for neither report', async () => {
      const settings = { seatId: 'PBE000123', senderParticipantId: participant('sp'), receiverParticipantId: 'iso6523-actorid-upis::9925:be0848934496', countryC1: 'BE' };
      const first = await sendReports(store, month, settings);
      expect(first.map((r) => [r.kind, r.sent?.documentNumber])).toEqual([['tsr', `TSR-${month}`], ['eusr', `EUSR-${month}`]]);
      const again = await sendReports(store, month, settings);
      expect(again.map((r) => [r.kind, r.skipped?.documentNumber, r.sent])).toEqual([['tsr', `TSR-${month}`, undefined], ['eusr', `EUSR-${month}`, undefined]]);
      const resent = await sendReports(store, month, settings, { resend: true });
      expect(resent.map((r) => r.sent?.documentNumber)).toEqual([`TSR-${month}-2`, `EUSR-${month}-2`]);

      // The delivery worker takes them as any submitted document: to OpenPeppol's receiver, through the access point.
      const handler = createDeliveryHandler({ store, accessPoint: new SandboxAccessPoint(store), groupId: `peppolrep-${randomUUID()}`, log });
      const tsrId = first[0].sent!.documentId;
      const [submitted] = await store.readStream(documentStreamId(tsrId));
      expect(submitted.data).toMatchObject({ receiverParticipantId: settings.receiverParticipantId, senderParticipantId: settings.senderParticipantId, countryC1: 'BE' });
      expect((await validateReport('tsr', (submitted.data as DocumentSubmittedData).xml)).schematron).toEqual([]);
      // Sent now, so recorded in the current month, where it counts for neither report.
      const now = new Date().toISOString().slice(0, 7);
      const before = await previewReports(query, now, settings);
      await handler(submitted, ctx);
      const [row] = await query<{ delivery_status: string }>(`SELECT delivery_status FROM documents WHERE id = $1`, [tsrId]);
      expect(row.delivery_status).toBe('Delivered');
      expect(await transmissionOf(tsrId)).toMatchObject([{ direction: 'outgoing', document_type_id: peppolReporting.REPORTING_SPECIFICATIONS.tsr.documentTypeId, transport_profile: AS4 }]);
      const after = await previewReports(query, now, settings);
      expect([after.tsr.statistics.total, after.eusr.statistics.fullSet]).toEqual([before.tsr.statistics.total, before.eusr.statistics.fullSet]);

      const listed = await listReports(query);
      expect(listed.find((m) => m.month === month)?.reports.map((r) => r.documentNumber)).toEqual([`EUSR-${month}`, `TSR-${month}`, `EUSR-${month}-2`, `TSR-${month}-2`]);
    });
  });
});
