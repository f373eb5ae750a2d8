import type { AuthorityReport } from '../../registry/authority';
import { tddMessageId, UaeFtaConnector, type UaeReportPayload } from './connector';
import { DEFAULT_AP_SPID, ftaTransportFromEnv, uaeFtaConnector } from './from-env';
import { buildMls, type Mls } from '../../peppol-ubl/mls';
import { SandboxFta } from './sandbox-fta';
import { AccessPointClient } from './access-point-client';
import { readTdd } from './tdd-rules';
import { renderedInvoice } from './test-documents';
import { unavailable, type FtaTransport, type TddAcknowledgement, type TddMessage, type TddStatus } from './transport';

/** A network held in memory: what was sent, and the status each message has (set by the test). */
class MemoryTransport implements FtaTransport {
  readonly sent: TddMessage[] = [];
  readonly statuses = new Map<string, TddStatus>();
  failSends = 0;

  async send(message: TddMessage): Promise<TddAcknowledgement> {
    if (this.failSends > 0) {
      this.failSends -= 1;
      throw unavailable('down');
    }
    this.sent.push(message);
    this.statuses.set(message.messageId, { messageId: message.messageId, receivedAt: '2026-07-01T10:00:00.000Z', reference: 'REF-1' });
    return { messageId: message.messageId, receivedAt: '2026-07-01T10:00:00.000Z', reference: 'REF-1' };
  }

  async status(messageId: string): Promise<TddStatus | undefined> {
    return this.statuses.get(messageId);
  }

  answer(messageId: string, mls: Partial<Mls>): void {
    const full: Mls = {
      id: 'mls-1', issuedAt: '2026-07-01T10:00:02.000Z', sender: '0242:FTA', receiver: '0242:AP', responseCode: 'AP', messageId, issues: [], ...mls,
    };
    this.statuses.set(messageId, { ...(this.statuses.get(messageId) as TddStatus), mls: buildMls(full) });
  }
}

const report = (over: Partial<UaeReportPayload> = {}, bytes = renderedInvoice()): AuthorityReport<UaeReportPayload> => ({
  reportId: '3a0b2a8e-4a52-4f35-9d7e-0d1f9a3f4b11',
  tenantId: 't',
  supplierId: 's',
  payload: { reporterRole: 'C2', participantId: 'p', ...over },
  document: { bytes, mediaType: 'application/xml', sha256: 'x' },
});
const heartbeat = { heartbeat: async () => undefined };

describe('UaeFtaConnector: the report pipeline\'s view of the FTA', () => {
  let network: MemoryTransport;
  let connector: UaeFtaConnector;
  const messageId = tddMessageId('3a0b2a8e-4a52-4f35-9d7e-0d1f9a3f4b11');

  beforeEach(() => {
    network = new MemoryTransport();
    connector = new UaeFtaConnector(network, { ftaId: '0242:FTA', representativeId: '0242:AP', now: () => new Date('2026-07-01T10:00:00Z') });
  });

  it('given a report, when submitted, then one TDD goes to the FTA as a Peppol TaxData send and the answer waits for the MLS', async () => {
    await expect(connector.submit(report(), heartbeat)).resolves.toEqual({
      kind: 'accepted', final: false, receipt: { messageId, receivedAt: '2026-07-01T10:00:00.000Z', reference: 'REF-1' },
    });
    expect(network.sent).toHaveLength(1);
    const [sent] = network.sent;
    expect(sent).toMatchObject({
      messageId,
      senderId: '0235:1234567890',
      receiverId: '0242:FTA',
      documentTypeId: 'busdox-docid-qns::urn:peppol:schema:taxdata:1.0::TaxData##urn:peppol:taxdata:ae-1::1.0',
      processId: 'cenbii-procid-ubl::urn:peppol:taxreporting',
    });
    expect(readTdd(sent.xml).facts).toMatchObject({ reporterRole: '01', reportingParty: '0235:1234567890', representative: '0242:AP' });
  });

  it('given a received copy (C3), when submitted, then the receiver reports it', async () => {
    await connector.submit(report({ reporterRole: 'C3' }), heartbeat);
    expect(readTdd(network.sent[0].xml).facts).toMatchObject({ reporterRole: '02', reportingParty: '0235:1345678901' });
  });

  it('given the network down, when submitted, then its retriable error goes back to the pipeline', async () => {
    network.failSends = 1;
    await expect(connector.submit(report(), heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.UNAVAILABLE', retriable: true });
  });

  it('given a payload without a reporter role or a document that is not UBL, when submitted, then an error a retry cannot fix, and nothing is sent', async () => {
    await expect(connector.submit(report({ reporterRole: 'C9' as never }), heartbeat)).rejects.toMatchObject({ retriable: false });
    await expect(connector.submit(report({}, '{"json": true}'), heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.UNREADABLE_DOCUMENT', retriable: false });
    expect(network.sent).toEqual([]);
  });

  it('given a TDD taken, when polled before and after the MLS, then pending, then reported with the MLS in the receipt (AP and AB)', async () => {
    const { receipt } = (await connector.submit(report(), heartbeat)) as { receipt: { messageId: string } };
    await expect(connector.poll(report(), receipt, heartbeat)).resolves.toEqual({ kind: 'pending' });
    network.answer(messageId, { responseCode: 'AB' });
    await expect(connector.poll(report(), receipt, heartbeat)).resolves.toEqual({
      kind: 'accepted', final: true,
      receipt: { messageId, receivedAt: '2026-07-01T10:00:00.000Z', reference: 'REF-1', mls: { id: 'mls-1', code: 'AB', issuedAt: '2026-07-01T10:00:02.000Z' } },
    });
  });

  it('given an MLS RE, when polled, then rejected with the reason codes, the description and each issue', async () => {
    const { receipt } = (await connector.submit(report(), heartbeat)) as { receipt: { messageId: string } };
    network.answer(messageId, {
      responseCode: 'RE', description: 'Rejected.',
      issues: [{ location: 'NA', description: '[ibr-tdd-42] seller', reason: 'BV' }, { location: '/x', description: 'syntax', reason: 'SV' }],
    });
    await expect(connector.poll(report(), receipt, heartbeat)).resolves.toMatchObject({
      kind: 'rejected',
      error: {
        code: 'BV,SV',
        message: 'Rejected. — [ibr-tdd-42] seller — syntax',
        details: [{ code: 'BV', message: '[ibr-tdd-42] seller' }, { code: 'SV', message: 'syntax', path: '/x' }],
      },
      receipt: { mls: { code: 'RE' } },
    });
  });

  it('given an MLS that cannot be read, when polled, then rejected as UAE_FTA.BAD_MLS', async () => {
    const { receipt } = (await connector.submit(report(), heartbeat)) as { receipt: { messageId: string } };
    network.statuses.set(messageId, { messageId, mls: '<ApplicationResponse/>' });
    await expect(connector.poll(report(), receipt, heartbeat)).resolves.toMatchObject({ kind: 'rejected', error: { code: 'UAE_FTA.BAD_MLS' } });
  });

  it('given what an access point reports without the MLS document, when polled, then its code decides, and a message it gave up on is rejected', async () => {
    network.statuses.set(messageId, { messageId, responseCode: 'AP' });
    await expect(connector.poll(report(), { messageId }, heartbeat)).resolves.toMatchObject({ kind: 'accepted', final: true });
    network.statuses.set(messageId, { messageId, responseCode: 'RE' });
    await expect(connector.poll(report(), { messageId }, heartbeat)).resolves.toMatchObject({ kind: 'rejected', error: { code: 'RE' } });
    network.statuses.set(messageId, { messageId, undeliverable: { code: 'UAE_FTA.NOT_DELIVERED', message: 'gave up' } });
    await expect(connector.poll(report(), { messageId }, heartbeat)).resolves.toMatchObject({ kind: 'rejected', error: { code: 'UAE_FTA.NOT_DELIVERED' } });
  });

  it('given a message the network does not know, when polled, then UAE_FTA.UNKNOWN_MESSAGE', async () => {
    await expect(connector.poll(report(), { messageId }, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.UNKNOWN_MESSAGE' });
  });

  it('given an answer lost after a crash, when recovered, then nothing when the FTA has nothing, taken while no MLS, the verdict once there', async () => {
    await expect(connector.recover(report(), '2026-07-01T09:59:00Z', heartbeat)).resolves.toBeUndefined();
    await connector.submit(report(), heartbeat);
    await expect(connector.recover(report(), '2026-07-01T09:59:00Z', heartbeat)).resolves.toMatchObject({ kind: 'accepted', final: false, receipt: { messageId } });
    network.answer(messageId, { responseCode: 'RE', description: 'No.', issues: [{ location: 'NA', description: 'bad', reason: 'BV' }] });
    await expect(connector.recover(report(), '2026-07-01T09:59:00Z', heartbeat)).resolves.toMatchObject({ kind: 'rejected', error: { code: 'BV' } });
  });
});

describe('uaeFtaConnector from the environment (UAE_FTA_MODE, as MYINVOIS_MODE)', () => {
  const query = async () => [];

  it('given no mode, then the sandbox FTA; given live with an access point URL, then the access point client', () => {
    expect(ftaTransportFromEnv({}, query)).toBeInstanceOf(SandboxFta);
    expect(ftaTransportFromEnv({ UAE_FTA_MODE: 'live', UAE_FTA_AP_URL: 'http://127.0.0.1:1' }, query)).toBeInstanceOf(AccessPointClient);
    expect(uaeFtaConnector({ query, env: {} })).toBeInstanceOf(UaeFtaConnector);
  });

  it.each([
    [{ UAE_FTA_MODE: 'live' }, 'UAE_FTA_AP_URL'],
    [{ UAE_FTA_MODE: 'production' }, 'UAE_FTA_MODE'],
    [{ UAE_SANDBOX_FTA_MLS_MS: 'soon' }, 'UAE_SANDBOX_FTA_MLS_MS'],
  ])('given %j, then a configuration error naming %s', (env, name) => {
    expect(() => ftaTransportFromEnv(env, query)).toThrow(name);
  });

  it('#46 names this access point as the TDD\'s ReportersRepresentative by PEPPOL_SERVICE_PROVIDER_ID, else the deprecated UAE_AP_SPID; two that differ stop it', () => {
    const representative = (env: NodeJS.ProcessEnv) => (uaeFtaConnector({ query, env }) as unknown as { options: { representativeId: string } }).options.representativeId;
    expect(representative({ PEPPOL_SERVICE_PROVIDER_ID: '0242:000111' })).toBe('0242:000111');
    expect(representative({ UAE_AP_SPID: '0242:000222' })).toBe('0242:000222');
    expect(representative({})).toBe(DEFAULT_AP_SPID);
    expect(() => uaeFtaConnector({ query, env: { PEPPOL_SERVICE_PROVIDER_ID: '0242:000111', UAE_AP_SPID: '0242:000222' } })).toThrow(
      'PEPPOL_SERVICE_PROVIDER_ID (0242:000111) and UAE_AP_SPID (0242:000222) name two service provider ids',
    );
  });
});
