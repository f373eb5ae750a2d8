// #46 the live SML client against a local fake that speaks BDMSL's participant service (SOAP 1.1 over
// mutual TLS with the SMP certificate, test/fakes/bdmsl): each request checked against the WSDL's input
// messages; create and delete idempotent as the connector promises; BDMSL's faults turned into errors
// that say what to fix, and retriable only where the SML itself failed.
import { request } from 'node:https';
import { FakeBdmsl } from '../../../../test/fakes/bdmsl/server';
import { type TestKeystores, makeTestKeystores } from '../../../../test/support/peppol-keystores';
import { BDMSL_ACTIONS, BdmslSml, MANAGE_PARTICIPANT_PATH, participantRequest } from './bdmsl-sml';

describe('#46 BDMSL: the SML participant service over mutual TLS', () => {
  let pki: TestKeystores;
  let fake: FakeBdmsl;
  let url: string;
  let sml: BdmslSml;
  const smpId = 'EINVOICE-TEST-SMP';
  let counter = 0;
  const pid = () => `iso6523-actorid-upis::0208:${String(1_000_000_000 + (counter += 1))}`;

  beforeAll(async () => {
    pki = makeTestKeystores();
    fake = new FakeBdmsl({ ...pki.server, ca: pki.ca, smps: { [smpId]: pki.smp.cert, 'OTHER-SMP': pki.ap.cert } });
    url = await fake.start();
    sml = new BdmslSml({ url, smpId, tls: { cert: pki.smp.cert, key: pki.smp.key, ca: pki.ca }, timeoutMs: 10_000 });
  });

  afterAll(async () => {
    await fake?.stop();
    pki?.remove();
  });

  beforeEach(() => {
    fake.mode = 'ok';
  });

  afterEach(() => {
    // Every request the client sent matched the WSDL's messages.
    expect(fake.violations).toEqual([]);
  });

  it('registers a participant (CreateParticipantIdentifier as the WSDL has it) and removes it (DeleteParticipantIdentifier)', async () => {
    const participant = pid();
    await sml.register(participant);
    expect(fake.participants.get(participant)).toBe(smpId);
    const sent = fake.received.at(-1)!;
    expect(sent).toContain(`<lrs:CreateParticipantIdentifier xmlns:lrs="http://busdox.org/serviceMetadata/locator/1.0/" xmlns:ids="http://busdox.org/transport/identifiers/1.0/">`);
    expect(sent).toContain(`<lrs:ServiceMetadataPublisherID>${smpId}</lrs:ServiceMetadataPublisherID><ids:ParticipantIdentifier scheme="iso6523-actorid-upis">${participant.split('::')[1]}</ids:ParticipantIdentifier>`);
    await sml.unregister(participant);
    expect(fake.participants.has(participant)).toBe(false);
    expect(fake.received.at(-1)).toContain('<lrs:DeleteParticipantIdentifier');
  });

  it('is idempotent: a second create (BadRequestFault "already exists") and a second delete (NotFoundFault) succeed', async () => {
    const participant = pid();
    await sml.register(participant);
    await sml.register(participant);
    expect(fake.received.slice(-2).every((body) => body.includes('CreateParticipantIdentifier'))).toBe(true);
    await sml.unregister(participant);
    await sml.unregister(participant);
    expect(fake.participants.has(participant)).toBe(false);
  });

  it('an SMP ID the SML does not know, or one that is not the certificate\'s: a final error that says what to fix', async () => {
    const unknown = new BdmslSml({ url, smpId: 'NO-SUCH-SMP', tls: { cert: pki.smp.cert, key: pki.smp.key, ca: pki.ca }, timeoutMs: 10_000 });
    await expect(unknown.register(pid())).rejects.toMatchObject({
      code: 'SML.SMP_NOT_FOUND',
      retriable: false,
      message: expect.stringMatching(/^The SML does not know SMP ID NO-SUCH-SMP \(registering .*\): The SMP 'NO-SUCH-SMP' doesn't exist\. Register the SMP/),
    });
    const notMine = new BdmslSml({ url, smpId: 'OTHER-SMP', tls: { cert: pki.smp.cert, key: pki.smp.key, ca: pki.ca }, timeoutMs: 10_000 });
    await expect(notMine.unregister(pid())).rejects.toMatchObject({
      code: 'SML.UNAUTHORIZED',
      retriable: false,
      message: expect.stringContaining('the SMP certificate (PEPPOL_SMP_KEYSTORE) is not the one registered for SMP ID OTHER-SMP'),
    });
  });

  it('the SML failing (InternalErrorFault, HTTP 503) is retriable; nothing was registered', async () => {
    const participant = pid();
    fake.mode = 'internal';
    await expect(sml.register(participant)).rejects.toMatchObject({ code: 'SML.UNAVAILABLE', retriable: true, message: expect.stringContaining('Internal error') });
    fake.mode = 'down';
    await expect(sml.register(participant)).rejects.toMatchObject({ code: 'SML.UNAVAILABLE', retriable: true });
    expect(fake.participants.has(participant)).toBe(false);
  });

  it('the fake demands a client certificate of its CA: another CA\'s, or none, never reaches the service', async () => {
    const before = fake.received.length;
    const stranger = new BdmslSml({ url, smpId, tls: { cert: pki.stranger.cert, key: pki.stranger.key, ca: pki.ca }, timeoutMs: 10_000 });
    await expect(stranger.register(pid())).rejects.toMatchObject({ code: 'SML.UNAVAILABLE', retriable: true });
    const anonymous = new BdmslSml({ url, smpId, tls: { ca: pki.ca }, timeoutMs: 10_000 });
    await expect(anonymous.register(pid())).rejects.toMatchObject({ code: 'SML.UNAVAILABLE', retriable: true });
    expect(fake.received.length).toBe(before);
  });

  it('the fake refuses what breaks the WSDL\'s message (its checks can fail)', async () => {
    const good = participantRequest('create', smpId, pid());
    // The sequence swapped: ParticipantIdentifier before ServiceMetadataPublisherID.
    const swapped = good.replace(/(<lrs:ServiceMetadataPublisherID>.*<\/lrs:ServiceMetadataPublisherID>)(<ids:ParticipantIdentifier.*<\/ids:ParticipantIdentifier>)/, '$2$1');
    const wrongAction = await post(good, BDMSL_ACTIONS.delete);
    const wrongOrder = await post(swapped, BDMSL_ACTIONS.create);
    expect([wrongAction.status, wrongOrder.status]).toEqual([500, 500]);
    expect(wrongOrder.body).toContain('<faultcode>soap:Client</faultcode>');
    expect(fake.violations.splice(0)).toEqual([
      expect.stringContaining("is not the create operation's"),
      'the first element must be {locator}ServiceMetadataPublisherID',
    ]);
  });

  async function post(body: string, action: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const sent = request(`${url}${MANAGE_PARTICIPANT_PATH}`, { method: 'POST', cert: pki.smp.cert, key: pki.smp.key, ca: pki.ca, headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${action}"` } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      sent.on('error', reject);
      sent.end(body);
    });
  }
});
