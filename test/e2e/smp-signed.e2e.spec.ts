// #46 the SMP of a live gateway: it publishes AS4_PUBLIC_URL and the AP certificate, signs each
// SignedServiceMetadata with the SMP certificate (verified here with xml-crypto against that
// certificate), and a gateway given an expired or mismatched certificate does not start, saying why.
import { SignedXml } from 'xml-crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { TEST_KEYSTORE_PASSWORD, type TestKeystores, makeTestKeystores } from '../support/peppol-keystores';
import { first, parseXml } from '../../libs/areas/src/shared/xml-read';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { kboNumber } from '../support/identifiers';
import { recordSecret } from '../support/secrets';
import { AppProcess, freePort, startApp, startGateway, testEnv } from '../support/stack';

const BIS_INVOICE =
  'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const AS4_PUBLIC_URL = 'https://ap.e2e.example/as4';
const enc = encodeURIComponent;

describe('#46 the SMP publishes this access point and signs its answers', () => {
  let pki: TestKeystores;
  let dataSource: DataSource;
  let client: Client;
  const apps: AppProcess[] = [];
  let keystores: Record<string, string>;

  beforeAll(async () => {
    pki = makeTestKeystores();
    // The log check of `npm test` fails the run if any app writes these.
    [TEST_KEYSTORE_PASSWORD, pki.ap.key, pki.smp.key].forEach(recordSecret);
    keystores = {
      PEPPOL_AP_KEYSTORE: pki.ap.p12,
      PEPPOL_AP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
      PEPPOL_SMP_KEYSTORE: pki.smp.p12,
      PEPPOL_SMP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
    };
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e smp signed');
    const gateway = await startGateway({ PEPPOL_MODE: 'live', AS4_PUBLIC_URL, LOG_LEVEL: 'info', ...keystores });
    apps.push(gateway.app);
    client = new Client(gateway.url, apiKey);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
    pki?.remove();
  });

  it('SignedServiceMetadata: AS4_PUBLIC_URL, the AP certificate, a signature that verifies with the SMP certificate', async () => {
    const kbo = kboNumber();
    const pid = `iso6523-actorid-upis::0208:${kbo}`;
    const created = await client.post('/1.0/participant', {
      businessEntity: [{
        names: { name: [{ language: 'nl', name: 'Signed NV' }] },
        countryCode: 'BE',
        additionalIdentifiers: { additionalIdentifier: [{ identifierCode: '0208', identifierValue: kbo, scheme: 'iso6523-actorid-upis' }] },
        contacts: { contact: [{ email: 'billing@signed.example', name: 'An Peeters', phoneNumber: '+3221234567', type: 'administrative' }] },
      }],
    });
    expect(created.status).toBe(201);
    const lookup = await client.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
    expect(JSON.stringify(lookup.body)).toContain(AS4_PUBLIC_URL);

    const answer = await client.withKey(undefined).get(`/smp/${enc(pid)}/services/${enc(BIS_INVOICE)}`);
    expect(answer.status).toBe(200);
    const xml = String(answer.body);
    const root = parseXml(xml);
    const endpoint = first(root, 'ServiceMetadata', 'ServiceInformation', 'ProcessList', 'Process', 'ServiceEndpointList', 'Endpoint');
    expect(first(endpoint, 'EndpointReference', 'Address')?.text).toBe(AS4_PUBLIC_URL);
    expect(Buffer.from(first(endpoint, 'Certificate')!.text, 'base64').toString('base64')).toBe(first(endpoint, 'Certificate')!.text);
    expect(first(endpoint, 'Certificate')!.text).not.toBe(certificateBase64(pki.smp.cert));
    expect(first(endpoint, 'Certificate')!.text).toBe(certificateBase64(pki.ap.cert));

    const signature = first(root, ['http://www.w3.org/2000/09/xmldsig#', 'Signature'])!;
    const verify = (publicCert: string, document: string) => {
      const verifier = new SignedXml({ publicCert });
      verifier.loadSignature(xml.slice(signature.start, signature.end));
      try {
        return verifier.checkSignature(document);
      } catch {
        return false;
      }
    };
    expect(verify(pki.smp.cert, xml)).toBe(true);
    expect(verify(pki.smp.cert, xml.replace(AS4_PUBLIC_URL, 'https://attacker.example/as4'))).toBe(false);
  });

  async function refusedStart(extra: Record<string, string>): Promise<{ code: number | null; output: string }> {
    const app = startApp('gateway', testEnv({ PORT: String(await freePort()), ...extra }));
    apps.push(app);
    let output = '';
    app.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => app.child.once('exit', (exit) => resolve(exit)));
    return { code, output };
  }

  it('does not start with an expired AP certificate, a mismatched SMP keystore, or live mode without its settings; says why', async () => {
    const expired = await refusedStart({ PEPPOL_MODE: 'live', AS4_PUBLIC_URL, ...keystores, PEPPOL_AP_KEYSTORE: pki.expiredP12 });
    expect(expired.code).toBe(1);
    expect(expired.output).toContain('PEPPOL_AP_KEYSTORE: the certificate CN=PSG000001-old expired on 2020-01-02T00:00:00.000Z.');
    const mismatched = await refusedStart({ ...keystores, PEPPOL_SMP_KEYSTORE: pki.mismatchedPem });
    expect(mismatched.code).toBe(1);
    expect(mismatched.output).toContain('(mismatched certificate and key)');
    const bare = await refusedStart({ PEPPOL_MODE: 'live' });
    expect(bare.code).toBe(1);
    expect(bare.output).toContain('PEPPOL_MODE=live needs AS4_PUBLIC_URL, PEPPOL_AP_KEYSTORE, PEPPOL_SMP_KEYSTORE');
    for (const { output } of [expired, mismatched, bare]) expect(output).not.toMatch(/PRIVATE KEY|test-keystore-password/);
  });
});

function certificateBase64(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
}
