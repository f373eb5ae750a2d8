import { randomUUID } from 'node:crypto';
import { RecordedEvent, createLogger, participantDecider, participantStreamId } from '@einvoice/domain';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../test/support/database';
import { createSmlHandler } from './drive-sml';
import type { SmlConnector } from '@einvoice/areas';
import { SandboxSml } from './sml-connector';

describe('#11 the SML handler calls the SML with no connection held', () => {
  const prefix = `sml${Date.now().toString(36)}`;
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    // One connection: a handler that held it across the call would leave the sandbox SML's own
    // statement waiting for it for ever.
    ({ dataSource, store } = await openTestDatabase(prefix, { poolSize: 1 }));
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** A participant registered here whose activation is requested: the request's event. */
  async function activationRequested(): Promise<RecordedEvent> {
    const participantId = `iso6523-actorid-upis::0208:${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const stream = participantStreamId(participantId);
    const at = new Date().toISOString();
    const tenantId = randomUUID();
    await store.transaction((uow) =>
      handleCommand(uow, participantDecider, stream, {
        type: 'RegisterParticipant',
        data: {
          participantId,
          tenantId,
          source: 'api',
          businessEntities: [{ names: [{ name: 'Brussels Widgets NV', language: 'nl' }], countryCode: 'BE', additionalIdentifiers: [], contacts: [] }],
          registeredAt: at,
          kycRequired: false,
          kycMethods: [],
        },
      }, { tenantId }),
    );
    const [requested] = await store.transaction((uow) =>
      handleCommand(uow, participantDecider, stream, { type: 'RequestSmlActivation', data: { participantId, tenantId, at } }, { tenantId }),
    );
    return requested;
  }

  const ctx = { topic: 't', partition: 0, offset: '0', attempt: 1, headers: {}, heartbeat: async () => undefined };

  async function streamTypes(event: RecordedEvent): Promise<string[]> {
    const rows: Array<{ type: string }> = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [event.streamId]);
    return rows.map((r) => r.type);
  }

  it('on a pool of one connection, the sandbox SML (on the same pool) is called and the activation recorded', async () => {
    const event = await activationRequested();
    const handle = createSmlHandler({ store, sml: new SandboxSml(dataSource, 'test-smp'), groupId: `${prefix}.delivery-worker`, log: createLogger('sml-int', 'error') });
    await handle(event, ctx);
    expect(await streamTypes(event)).toEqual(['ParticipantRegistered', 'SmlActivationRequested', 'SmlActivated']);
    const [row] = await dataSource.query(`SELECT active FROM sandbox_sml_registrations WHERE participant_id = $1`, [(event.data as { participantId: string }).participantId]);
    expect(row).toEqual({ active: true });
  });

  it('a request handled already calls nothing again and records nothing twice', async () => {
    const event = await activationRequested();
    const calls: string[] = [];
    const counting: SmlConnector = {
      register: async (participantId) => void calls.push(participantId),
      unregister: async (participantId) => void calls.push(participantId),
    };
    const handle = createSmlHandler({ store, sml: counting, groupId: `${prefix}.delivery-worker`, log: createLogger('sml-int', 'error') });
    await handle(event, ctx);
    await handle(event, ctx);
    expect(calls).toHaveLength(1);
    expect(await streamTypes(event)).toEqual(['ParticipantRegistered', 'SmlActivationRequested', 'SmlActivated']);
  });
});
