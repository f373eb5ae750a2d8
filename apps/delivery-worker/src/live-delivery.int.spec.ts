import { As4Engine } from '@einvoice/areas';
import { randomUUID } from 'node:crypto';
import {
  type PeppolTransmissionRequestedData,
  type RecordedEvent,
  as4MessageId,
  createLogger,
  documentDecider,
  documentStreamId,
  peppolTransmissionDecider,
  peppolTransmissionStreamId,
} from '@einvoice/domain';
import { type EventStore, type UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { RECEIVERS, StandInEngine } from '../../../test/fakes/as4-engine/server';
import { openTestDatabase } from '../../../test/support/database';
import { PEPPOL_INVOICE_FROM_BE as xml, documentSubmitted } from '../../../test/support/fixtures';
import { LiveAccessPoint } from './access-point/live-access-point';
import { createDeliveryHandler } from './deliver-document';
import { createTransmissionHandler } from './send-transmission';

const SECRET = 'int-secret';
const ctx = (attempt: number) => ({ topic: 't', partition: 0, offset: '0', attempt, headers: {}, heartbeat: async () => undefined });

/**
 * #46 exactly once in live mode: the engine's call runs with no transaction open, its receipt commits
 * with the processed mark; a worker that dies in between sends again with the same MessageId, which the
 * receiving access point (here the stand-in) de-duplicates, and the document is Sent once. The MLS may
 * come back before the receipt is recorded: it decides, the receipt after it does not.
 */
describe('#46 live delivery through the AS4 engine, exactly once', () => {
  const prefix = `live${Date.now().toString(36)}`;
  const engine = new StandInEngine(SECRET);
  let dataSource: DataSource;
  let store: EventStore;
  let url: string;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase(prefix));
    url = await engine.start();
  });

  afterAll(async () => {
    await engine.stop();
    await dataSource?.destroy();
  });

  async function submitted(): Promise<RecordedEvent> {
    const data = documentSubmitted({ fields: {}, xml });
    const [event] = await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }));
    return event;
  }

  /** The store, whose next `failures` units of work fail at their end, as a worker killed before its commit. */
  function dyingStore(failures: number, before?: () => Promise<void>): EventStore {
    let left = failures;
    return new Proxy(store, {
      get(target, name) {
        // Everything else on the store itself: its reads' own units of work are not the outcome's.
        if (name !== 'transaction') {
          const value = Reflect.get(target, name, target);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async <T>(work: (uow: UnitOfWork) => Promise<T>) => {
          await before?.();
          if (left > 0) {
            left -= 1;
            throw new Error('killed before the commit');
          }
          return target.transaction(work);
        };
      },
    });
  }

  const handlerWith = (deps: { store: EventStore }) =>
    createDeliveryHandler({ store: deps.store, accessPoint: new LiveAccessPoint(new As4Engine({ url, secret: SECRET })), groupId: `${prefix}.delivery-worker`, log: createLogger('live-int', 'error') });
  const typesOf = async (event: RecordedEvent) =>
    (await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [event.streamId])).map((e: { type: string }) => e.type);

  it('a worker killed after the engine answered sends again with the same MessageId: one message, Sent once', async () => {
    const event = await submitted();
    const calls = engine.calls;
    const handle = handlerWith({ store: dyingStore(1) });
    await expect(handle(event, ctx(1))).rejects.toThrow('killed before the commit');
    await handle(event, ctx(2));
    await handle(event, ctx(3));
    const documentId = (event.data as { documentId: string }).documentId;
    expect(engine.calls - calls).toBe(2);
    expect(engine.sent.filter((m) => m.messageId === as4MessageId(documentId))).toHaveLength(1);
    expect(await typesOf(event)).toEqual(['DocumentSubmitted', 'DocumentSent']);
    const [row] = await dataSource.query(`SELECT delivery_status, delivery FROM documents WHERE id = $1`, [documentId]);
    expect(row).toMatchObject({ delivery_status: 'Sent', delivery: { channel: 'remote', messageId: as4MessageId(documentId), receipt: { refToMessageId: as4MessageId(documentId) } } });
  });

  it('an MLS that comes back before the receipt is recorded decides: Delivered, and the receipt after it adds nothing', async () => {
    const event = await submitted();
    const documentId = (event.data as { documentId: string }).documentId;
    // The MLS arrives (through the gateway's inbound route) while the worker is between the engine's answer and its commit.
    const mlsFirst = async () => {
      await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(documentId), {
        type: 'RecordMessageLevelStatus',
        data: { documentId, mls: { responseCode: 'AP', receivedAt: new Date().toISOString() }, recordedAt: new Date().toISOString() },
      }, { tenantId: 't' }));
    };
    let once = true;
    const handle = handlerWith({ store: dyingStore(0, async () => {
      if (once) {
        once = false;
        await mlsFirst();
      }
    }) });
    // The first try decided from the event in hand: the stream has moved on, the append is refused.
    await expect(handle(event, ctx(1))).rejects.toMatchObject({ code: 'STREAM.WRONG_EXPECTED_VERSION' });
    await handle(event, ctx(2));
    expect(await typesOf(event)).toEqual(['DocumentSubmitted', 'DocumentDelivered']);
    const [row] = await dataSource.query(`SELECT delivery_status FROM documents WHERE id = $1`, [documentId]);
    expect(row.delivery_status).toBe('Delivered');
  });

  it('sends this access point\'s own message (an MLS back) once; a final refusal is recorded, not retried', async () => {
    const handle = createTransmissionHandler({ store, engine: new As4Engine({ url, secret: SECRET }), groupId: `${prefix}.delivery-worker`, log: createLogger('live-int', 'error') });
    const request = async (receiverParticipantId: string): Promise<RecordedEvent> => {
      const transmissionId = randomUUID();
      const data: PeppolTransmissionRequestedData = {
        transmissionId, purpose: 'mls', messageId: `${transmissionId}@gw`, instanceIdentifier: transmissionId,
        senderParticipantId: 'iso6523-actorid-upis::0242:000111', receiverParticipantId,
        documentTypeId: 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:peppol:edec:mls:1.0::2.1',
        processId: 'cenbii-procid-ubl::urn:peppol:edec:mls', countryC1: 'BE', payload: '<ApplicationResponse/>', inReplyTo: 'x@their-ap', requestedAt: new Date().toISOString(),
      };
      const [event] = await store.transaction((uow) => handleCommand(uow, peppolTransmissionDecider, peppolTransmissionStreamId(transmissionId), { type: 'RequestPeppolTransmission', data }, { tenantId: 't' }));
      return event;
    };
    const sent = await request('iso6523-actorid-upis::0242:000222');
    const calls = engine.calls;
    await handle(sent, ctx(1));
    await handle(sent, ctx(2));
    expect(engine.calls - calls).toBe(1);
    expect(await typesOf(sent)).toEqual(['PeppolTransmissionRequested', 'PeppolTransmissionSent']);

    const refused = await request(RECEIVERS.unknown);
    await handle(refused, ctx(1));
    expect(await typesOf(refused)).toEqual(['PeppolTransmissionRequested', 'PeppolTransmissionFailed']);
    const [failed] = await dataSource.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'PeppolTransmissionFailed'`, [refused.streamId]);
    expect(failed.data.reason.code).toBe('PEPPOL.RECEIVER_NOT_FOUND');
  });
});
