import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { As4Engine, MLS_DOCUMENT_TYPE_ID } from '@einvoice/areas';
import { type AppError, as4MessageId } from '@einvoice/domain';
import { RECEIVERS, StandInEngine } from '../../../../test/fakes/as4-engine/server';
import { PEPPOL_INVOICE_FROM_BE as xml } from '../../../../test/support/fixtures';
import type { Transmission } from './access-point';
import { LiveAccessPoint } from './live-access-point';

const SECRET = 'the-shared-secret';
const transmission = (receiverParticipantId = 'iso6523-actorid-upis::9925:be0202239951'): Transmission => ({
  messageId: as4MessageId('d-1'),
  instanceIdentifier: 'd-1',
  senderParticipantId: 'iso6523-actorid-upis::9925:be0123456749',
  receiverParticipantId,
  documentType: '380',
  documentTypeId: 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  processId: 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  countryC1: 'BE',
  xml,
});
/** A server that takes connections and never answers. */
async function silentServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = http.createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
const code = (promise: Promise<unknown>) => promise.then(() => 'sent', (error: AppError) => `${error.code} retriable=${error.retriable}`);

describe('#46 the live access point against a stand-in of the AS4 engine\'s control API', () => {
  const engine = new StandInEngine(SECRET);
  let url: string;
  beforeAll(async () => {
    url = await engine.start();
  });
  afterAll(() => engine.stop());

  it('hands the engine the document with its envelope, and answers its receipt and how it travelled; the same MessageId twice is one message', async () => {
    const live = new LiveAccessPoint(new As4Engine({ url, secret: SECRET }));
    const answer = await live.send(transmission());
    expect(answer).toEqual({
      receipt: { refToMessageId: as4MessageId('d-1'), timestamp: expect.any(String) },
      receiverEndpoint: 'https://ap.receiver.example/as4',
      transport: { profile: 'peppol-transport-as4-v2_0', otherAccessPoint: 'PBE000002' },
    });
    expect(await live.send(transmission())).toEqual(answer);
    expect(engine.sent).toEqual([{
      messageId: as4MessageId('d-1'),
      instanceIdentifier: 'd-1',
      senderParticipantId: 'iso6523-actorid-upis::9925:be0123456749',
      receiverParticipantId: 'iso6523-actorid-upis::9925:be0202239951',
      documentTypeId: 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
      processId: 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
      countryC1: 'BE',
      payload: xml,
      mlsType: 'ALWAYS_SEND',
    }]);
  });

  it('asks for the MLS at this access point\'s service provider id, and an MLS for none', async () => {
    engine.sent.length = 0;
    const live = new LiveAccessPoint(new As4Engine({ url, secret: SECRET }), '0242:000111');
    await live.send({ ...transmission(), messageId: as4MessageId('d-2'), instanceIdentifier: 'd-2' });
    await live.send({ ...transmission(), messageId: as4MessageId('d-3'), instanceIdentifier: 'd-3', documentTypeId: MLS_DOCUMENT_TYPE_ID });
    expect(engine.sent.map((m) => [m.instanceIdentifier, m.mlsTo, m.mlsType])).toEqual([['d-2', '0242:000111', 'ALWAYS_SEND'], ['d-3', undefined, undefined]]);
  });

  it('a 422 is final with the engine\'s code; a 503, a wrong secret (401) or no engine at all is retriable', async () => {
    const live = new LiveAccessPoint(new As4Engine({ url, secret: SECRET }));
    expect(await code(live.send(transmission(RECEIVERS.unknown)))).toBe('PEPPOL.RECEIVER_NOT_FOUND retriable=false');
    expect(await code(live.send(transmission(RECEIVERS.unreachable)))).toBe('PEPPOL.ACCESS_POINT_UNAVAILABLE retriable=true');
    expect(await code(new LiveAccessPoint(new As4Engine({ url, secret: 'wrong' })).send(transmission()))).toBe('PEPPOL.ENGINE_UNAVAILABLE retriable=true');
    const gone = await silentServer();
    await gone.stop();
    expect(await code(new LiveAccessPoint(new As4Engine({ url: gone.url, secret: SECRET })).send(transmission()))).toBe('PEPPOL.ENGINE_UNAVAILABLE retriable=true');
  });

  it('an engine that does not answer in time is retriable PEPPOL.ENGINE_TIMEOUT', async () => {
    const silent = await silentServer();
    try {
      expect(await code(new LiveAccessPoint(new As4Engine({ url: silent.url, secret: SECRET, timeoutMs: 200 })).send(transmission()))).toBe('PEPPOL.ENGINE_TIMEOUT retriable=true');
    } finally {
      await silent.stop();
    }
  });
});
