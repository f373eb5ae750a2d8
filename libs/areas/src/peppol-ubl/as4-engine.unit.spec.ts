import { type LocalServer, listenLocally } from '../shared/testing/local-server';
import { AS4_TRANSPORT_PROFILE } from '../peppol-participants/smp';
import { As4Engine, type EngineMessage } from './as4-engine';

const SECRET = 'the-shared-secret-0123';
const message: EngineMessage = {
  messageId: 'm-1@einvoice.test',
  senderParticipantId: 'iso6523-actorid-upis::9925:be0123456749',
  receiverParticipantId: 'iso6523-actorid-upis::9925:be0202239951',
  documentTypeId: 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  processId: 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  countryC1: 'BE',
  payload: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
};
const sent = { status: 'sent', messageId: message.messageId, receipt: { refToMessageId: message.messageId, timestamp: '2026-07-01T10:00:02Z' }, receiverEndpoint: 'https://ap.example/as4' };

describe('#46 the AS4 engine client: how a sent message travelled', () => {
  let answer: object;
  let server: LocalServer;
  let url: string;
  beforeAll(async () => {
    server = await listenLocally((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      });
    });
    ({ url } = server);
  });
  afterAll(() => server.stop());

  it("given the engine's 200 names the transport profile and the receiving seat, when sent, then they are the transport", async () => {
    answer = { ...sent, transportProfile: 'peppol-transport-as4-v2_0', receiverSeatId: 'PDE000002' };

    expect(await new As4Engine({ url, secret: SECRET }).send(message)).toEqual({
      receipt: { refToMessageId: message.messageId, timestamp: '2026-07-01T10:00:02Z' },
      receiverEndpoint: 'https://ap.example/as4',
      transport: { profile: 'peppol-transport-as4-v2_0', otherAccessPoint: 'PDE000002' },
    });
  });

  it("given the engine's 200 names neither, when sent, then Peppol AS4's profile and an unknown seat, never a made-up one", async () => {
    answer = sent;

    expect((await new As4Engine({ url, secret: SECRET }).send(message)).transport).toEqual({ profile: AS4_TRANSPORT_PROFILE, otherAccessPoint: 'unknown' });
  });
});
