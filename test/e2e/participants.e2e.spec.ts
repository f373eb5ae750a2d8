import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat, kboNumber } from '../support/identifiers';
import { AppProcess, eventually, startApp, startGateway } from '../support/stack';

const BIS_INVOICE =
  'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const pidOf = (kbo: string) => `iso6523-actorid-upis::0208:${kbo}`;
const enc = encodeURIComponent;

function participantBody(kbo: string): Record<string, unknown> {
  return {
    businessEntity: [{
      names: { name: [{ language: 'nl', name: 'Brussels Widgets NV' }] },
      countryCode: 'BE',
      geographicalInformation: 'Rue de la Loi 16, 1000 Brussels',
      additionalInformation: 'Widgets and gadgets',
      additionalIdentifiers: { additionalIdentifier: [{ identifierCode: '0208', identifierValue: kbo, scheme: 'iso6523-actorid-upis' }] },
      contacts: { contact: [{ email: 'billing@widgets.example', name: 'Anne Peeters', phoneNumber: '+3221234567', type: 'administrative' }] },
    }],
  };
}

const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n').toString('base64');

describe('#3 Peppol participants over HTTP: create, KYC, lookup, SML, capabilities, SMP', () => {
  let dataSource: DataSource;
  let client: Client;
  let other: Client;
  let kyc: Client;
  let anonymous: Client;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const [a, b, k] = await Promise.all([createTenant(dataSource, 'e2e participants'), createTenant(dataSource, 'e2e participants other'), createTenant(dataSource, 'e2e participants kyc')]);
    await dataSource.query(`UPDATE tenants SET kyc_required = true WHERE id = $1`, [k.tenant.id]);
    const gateway = await startGateway();
    apps.push(gateway.app, startApp('delivery-worker'));
    client = new Client(gateway.url, a.apiKey);
    other = client.withKey(b.apiKey);
    kyc = client.withKey(k.apiKey);
    anonymous = client.withKey(undefined);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  async function created(kbo = kboNumber()): Promise<string> {
    const answer = await client.post('/1.0/participant', participantBody(kbo));
    expect(answer.status).toBe(201);
    return pidOf(kbo);
  }

  it('creates a participant without KYC (201, lookup shape) and looks it up', async () => {
    const kbo = kboNumber();
    const answer = await client.post('/1.0/participant', participantBody(kbo), { 'Idempotency-Key': `create-${kbo}` });
    expect(answer.status).toBe(201);
    expect(answer.body.Participants.Participant.Meta).toMatchObject({
      ParticipantIdentifier: { Scheme: 'iso6523-actorid-upis', IdentifierCode: '0208', IdentifierValue: kbo },
      SmlActivation: false,
      PdActivation: false,
      PdfFile: null,
      RegistrationDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    const replay = await client.post('/1.0/participant', participantBody(kbo), { 'Idempotency-Key': `create-${kbo}` });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const lookup = await client.get(`/1.0/participant/lookup?pid=${enc(pidOf(kbo))}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual(answer.body);
    expect(lookup.body.Participants).toMatchObject({
      xmlns: expect.any(String),
      Participant: {
        BusinessCard: { BusinessEntity: { Names: { Name: [{ Name: 'Brussels Widgets NV', Language: 'nl' }] }, CountryCode: 'BE', GeographicalInformation: 'Rue de la Loi 16, 1000 Brussels' } },
        AccessPointConfigurations: { AccessPointConfiguration: { EndpointId: expect.any(String), MetadataProfileIds: { ProfileId: expect.arrayContaining(['urn:fdc:peppol.eu:2017:poacc:billing:01:1.0']) } } },
      },
    });
  });

  it('refuses a bad body with every issue at its path', async () => {
    const answer = await client.post('/1.0/participant', { businessEntity: [{ countryCode: 'XX1', names: { name: [] } }] });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'businessEntity[0].countryCode', code: 'FIELD.INVALID_FORMAT' }),
      expect.objectContaining({ path: 'businessEntity[0].names.name', code: 'FIELD.TOO_FEW' }),
    ]));
  });

  it('a KYC tenant gets 202 with the methods, the participant stays pending until the signed PDF arrives', async () => {
    const kbo = kboNumber();
    const pid = pidOf(kbo);
    const answer = await kyc.post('/1.0/participant', participantBody(kbo));
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ status: 'kyc_pending', method: ['PDF_AUTHORIZATION_DOCUMENT'], data: { pid } });

    const pending = await kyc.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
    expect(pending.status).toBe(404);
    expect(pending.body.errors).toEqual([expect.objectContaining({ path: 'pid', code: 'PARTICIPANT.KYC_PENDING' })]);

    const notPdf = await kyc.post(`/1.0/participant/${enc(pid)}/kyc`, { fileName: 'kyc.pdf', content: Buffer.from('hello').toString('base64') });
    expect(notPdf.status).toBe(400);
    expect(notPdf.body.errors).toEqual([expect.objectContaining({ path: 'content', code: 'KYC.NOT_A_PDF' })]);
    const notOurs = await client.post(`/1.0/participant/${enc(pid)}/kyc`, { fileName: 'kyc.pdf', content: pdf });
    expect(notOurs.status).toBe(404);

    const done = await kyc.post(`/1.0/participant/${enc(pid)}/kyc`, { fileName: 'signed-authorization.pdf', content: pdf });
    expect(done.status).toBe(201);
    expect(done.body.Participants.Participant.Meta).toMatchObject({ PdfFile: 'signed-authorization.pdf', RegistrationDate: expect.any(String) });
    const lookup = await kyc.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.Participants.Participant.Meta.PdfFile).toBe('signed-authorization.pdf');
    const again = await kyc.post(`/1.0/participant/${enc(pid)}/kyc`, { fileName: 'again.pdf', content: pdf });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('PARTICIPANT.KYC_NOT_PENDING');
  });

  it('a participant id registered by any tenant is a 409 for another, and invisible to it', async () => {
    const kbo = kboNumber();
    const pid = await created(kbo);
    const duplicate = await other.post('/1.0/participant', participantBody(kbo));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors[0].code).toBe('PARTICIPANT.ALREADY_REGISTERED');
    const hidden = await other.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.errors[0]).toMatchObject({ path: 'pid', code: 'PARTICIPANT.NOT_FOUND' });
    const activate = await other.post(`/1.0/sml/activate/${enc(pid)}`, undefined);
    expect(activate.status).toBe(404);
  });

  it('SML: activate → activated (idempotent), deactivate → deactivated, deactivate again → 409', async () => {
    const pid = await created();
    const notPublished = await client.post(`/1.0/sml/deactivate/${enc(pid)}`, undefined);
    expect(notPublished.status).toBe(409);
    expect(notPublished.body.errors[0].code).toBe('SML.NOT_PUBLISHED');

    const activated = await client.post(`/1.0/sml/activate/${enc(pid)}`, undefined);
    expect(activated.status).toBe(200);
    expect(activated.body).toEqual({ status: 'success', data: { pid, status: 'activated' } });
    const lookup = await client.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
    expect(lookup.body.Participants.Participant.Meta.SmlActivation).toBe(true);
    const registrations = await dataSource.query(`SELECT active FROM sandbox_sml_registrations WHERE participant_id = $1`, [pid]);
    expect(registrations).toEqual([{ active: true }]);

    const twice = await client.post(`/1.0/sml/activate/${enc(pid)}`, undefined);
    expect(twice.status).toBe(200);
    expect(twice.body.data.status).toBe('activated');

    const deactivated = await client.post(`/1.0/sml/deactivate/${enc(pid)}`, undefined);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toEqual({ status: 'success', data: { pid, status: 'deactivated' } });
    expect((await client.get(`/1.0/participant/lookup?pid=${enc(pid)}`)).body.Participants.Participant.Meta.SmlActivation).toBe(false);
    const again = await client.post(`/1.0/sml/deactivate/${enc(pid)}`, undefined);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('SML.NOT_PUBLISHED');
  });

  it('looks up several ids in the order asked; a bad one is a 400 and a missing one a 404, each named pid[i]', async () => {
    const [a, b] = [await created(), await created()];
    const both = await client.get(`/1.0/participant/lookup?pid=${enc(b)}&pid=${enc(a)}`);
    expect(both.status).toBe(200);
    expect(both.body.Participants).toHaveLength(2);
    expect(both.body.Participants.map((p: { Participant: { Meta: { ParticipantIdentifier: { IdentifierValue: string } } } }) => p.Participant.Meta.ParticipantIdentifier.IdentifierValue))
      .toEqual([b.split(':').pop(), a.split(':').pop()]);

    const bad = await client.get(`/1.0/participant/lookup?pid=${enc(a)}&pid=${enc('iso6523-actorid-upis::1234:x')}&pid=${enc(b)}`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'pid[1]', code: 'PARTICIPANT.UNKNOWN_SCHEME' })]);
    const malformed = await client.get(`/1.0/participant/lookup?pid=not-a-pid`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([expect.objectContaining({ path: 'pid', code: 'PARTICIPANT.INVALID_ID' })]);

    const missing = await client.get(`/1.0/participant/lookup?pid=${enc(a)}&pid=${enc(pidOf(kboNumber()))}`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'pid[1]', code: 'PARTICIPANT.NOT_FOUND' })]);
    expect((await client.get('/1.0/participant/lookup')).status).toBe(400);
  });

  it('answers "can this participant receive X" publicly', async () => {
    const pid = await created();
    const unpublished = await anonymous.get(`/1.0/participant/${enc(pid)}/capabilities?documentTypeId=${enc(BIS_INVOICE)}`);
    expect(unpublished.status).toBe(200);
    expect(unpublished.body.data).toMatchObject({ pid, documentTypeId: BIS_INVOICE, canReceive: false, reason: 'SML.NOT_PUBLISHED' });
    expect((await client.post(`/1.0/sml/activate/${enc(pid)}`, undefined)).status).toBe(200);
    const yes = await anonymous.get(`/1.0/participant/${enc(pid)}/capabilities?documentTypeId=${enc(BIS_INVOICE)}`);
    expect(yes.body.data).toMatchObject({ canReceive: true, reason: 'SUPPORTED' });
    const orders = await anonymous.get(`/1.0/participant/${enc(pid)}/capabilities?documentTypeId=${enc('busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Order-2::Order##x::2.1')}`);
    expect(orders.body.data).toMatchObject({ canReceive: false, reason: 'DOCUMENT_TYPE.NOT_SUPPORTED' });
    const elsewhere = await anonymous.get(`/1.0/participant/${enc(pidOf(kboNumber()))}/capabilities?documentTypeId=${enc(BIS_INVOICE)}`);
    expect(elsewhere.body.data).toMatchObject({ canReceive: false, reason: 'PARTICIPANT.NOT_HOSTED' });
    const noType = await anonymous.get(`/1.0/participant/${enc(pid)}/capabilities`);
    expect(noType.status).toBe(400);
    expect(noType.body.errors[0]).toMatchObject({ path: 'documentTypeId', code: 'FIELD.REQUIRED' });
  });

  it('a BE supplier onboarded gets its participant, SML activation and SMP service metadata', async () => {
    const vat = beVat();
    const onboard = await client.post('/be/einvoice/onboard', { registered_name: 'Ghent Gears BV', identifiers: [{ scheme: 'BE:VAT', id: vat }], city: 'Gent', country: 'BE' });
    expect(onboard.status).toBe(201);
    const pid = `iso6523-actorid-upis::9925:${vat.toLowerCase()}`;
    await eventually('SML activation of the onboarded supplier', async () => {
      const lookup = await client.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
      return lookup.status === 200 && lookup.body.Participants.Participant.Meta.SmlActivation === true ? true : undefined;
    }, 20_000);

    const group = await anonymous.get(`/smp/${enc(pid)}`);
    expect(group.status).toBe(200);
    expect(group.headers.get('content-type')).toContain('application/xml');
    expect(group.body).toContain('xmlns:smp="http://busdox.org/serviceMetadata/publishing/1.0/"');
    expect(group.body).toContain(`<id:ParticipantIdentifier scheme="iso6523-actorid-upis">${pid.replace('iso6523-actorid-upis::', '')}</id:ParticipantIdentifier>`);
    expect(group.body).toContain(`/smp/${enc(pid)}/services/${enc(BIS_INVOICE)}`);

    const service = await anonymous.get(`/smp/${enc(pid)}/services/${enc(BIS_INVOICE)}`);
    expect(service.status).toBe(200);
    expect(service.body).toMatch(/<smp:SignedServiceMetadata[\s\S]*<smp:ServiceMetadata>[\s\S]*<smp:ServiceInformation>[\s\S]*<smp:ProcessList>[\s\S]*<smp:Endpoint transportProfile="peppol-transport-as4-v2_0">/);
    expect((await anonymous.get(`/smp/${enc(pid)}/services/${enc('busdox-docid-qns::nope')}`)).status).toBe(404);
    expect((await anonymous.get(`/smp/${enc(pidOf(kboNumber()))}`)).status).toBe(404);

    // The same participant by the API, from another tenant: a receiver is in exactly one SMP.
    const duplicate = await other.post('/1.0/participant', { participantIdentifier: pid, businessEntity: [{ names: { name: [{ language: 'nl', name: 'x' }] }, countryCode: 'BE' }] });
    expect(duplicate.status).toBe(409);
  });

  // Last: it stops the delivery-worker for a while.
  it('answers 202 activation_requested when the SML outcome is slower than the wait, and the lookup follows later', async () => {
    const pid = await created();
    await apps[1].stop();
    const pending = await client.post(`/1.0/sml/activate/${enc(pid)}`, undefined);
    expect(pending.status).toBe(202);
    expect(pending.body).toEqual({ status: 'pending', data: { pid, status: 'activation_requested' } });
    expect((await client.get(`/1.0/participant/lookup?pid=${enc(pid)}`)).body.Participants.Participant.Meta.SmlActivation).toBe(false);
    apps[1] = startApp('delivery-worker');
    await eventually('the SML activation once the worker is back', async () => {
      const lookup = await client.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
      return lookup.body.Participants.Participant.Meta.SmlActivation === true ? true : undefined;
    }, 60_000);
  });
});
