// #46 SignedServiceMetadata signed as Peppol SMP 1.x requires (enveloped XMLDSig, inclusive C14N,
// RSA-SHA256, SHA-256, the SMP certificate in KeyInfo): verified by xml-crypto's verifier and by xmlsec1
// (libxmlsec1, Debian's `xmlsec1`: npm test installs it) against the test CA; a document changed
// after signing fails both.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignedXml } from 'xml-crypto';
import { type KeystoreEntry, loadKeystore } from '../shared/keystore';
import { type TestKeystores, TEST_KEYSTORE_PASSWORD, makeTestKeystores } from '../../../../test/support/peppol-keystores';
import { all, first, parseXml } from '../shared/xml-read';
import { receivableDocumentTypesOf } from './document-types';
import { renderSignedServiceMetadata } from './smp';
import { SMP_SIGNATURE_ALGORITHMS, type SmpSigningKey } from './smp-signature';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const pid = 'iso6523-actorid-upis::0208:0123456749';
const endpoint = (certificate: string) => ({ endpointUri: 'https://ap.example.test/as4', certificate, serviceDescription: 'test access point', technicalContactUrl: 'https://example.test/support' });

/** xml-crypto's verifier, trusting only the given certificate (never the one the document carries). */
function verifiedBy(certificatePem: string, xml: string): boolean {
  const root = parseXml(xml);
  const signature = first(root, [DSIG, 'Signature']);
  if (!signature) return false;
  const verifier = new SignedXml({ publicCert: certificatePem });
  verifier.loadSignature(xml.slice(signature.start, signature.end));
  try {
    return verifier.checkSignature(xml);
  } catch {
    return false;
  }
}


describe('#46 the SMP signs SignedServiceMetadata', () => {
  let pki: TestKeystores;
  let smp: KeystoreEntry;
  let key: SmpSigningKey;
  let ap: KeystoreEntry;
  let signed: string;

  beforeAll(() => {
    pki = makeTestKeystores();
    smp = loadKeystore('PEPPOL_SMP_KEYSTORE', { PEPPOL_SMP_KEYSTORE: pki.smp.p12, PEPPOL_SMP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD })!;
    ap = loadKeystore('PEPPOL_AP_KEYSTORE', { PEPPOL_AP_KEYSTORE: pki.ap.p12, PEPPOL_AP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD })!;
    key = { certificatePem: smp.certificate.toString(), privateKey: smp.privateKey };
    signed = renderSignedServiceMetadata(pid, receivableDocumentTypesOf(pid)[0], endpoint(ap.certificate.raw.toString('base64')), key);
  });

  afterAll(() => pki?.remove());

  it('is an enveloped signature after ServiceMetadata, with the algorithms of Peppol SMP 1.x and the SMP certificate', () => {
    const root = parseXml(signed);
    expect(root.children.map((c) => c.name)).toEqual(['ServiceMetadata', 'Signature']);
    const signature = first(root, [DSIG, 'Signature'])!;
    expect(first(signature, 'SignedInfo', 'CanonicalizationMethod')?.attrs.Algorithm).toBe(SMP_SIGNATURE_ALGORITHMS.canonicalization);
    expect(first(signature, 'SignedInfo', 'SignatureMethod')?.attrs.Algorithm).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const references = all(signature, 'SignedInfo', 'Reference');
    expect(references.map((r) => r.attrs.URI)).toEqual(['']);
    expect(all(references[0], 'Transforms', 'Transform').map((t) => t.attrs.Algorithm)).toEqual(['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315']);
    expect(first(references[0], 'DigestMethod')?.attrs.Algorithm).toBe('http://www.w3.org/2001/04/xmlenc#sha256');
    expect(first(signature, 'KeyInfo', 'X509Data', 'X509Certificate')?.text.replace(/\s/g, '')).toBe(smp.certificate.raw.toString('base64'));
    // What the SMP publishes: the AP certificate, not the SMP's.
    expect(first(root, 'ServiceMetadata', 'ServiceInformation', 'ProcessList', 'Process', 'ServiceEndpointList', 'Endpoint', 'Certificate')?.text).toBe(ap.certificate.raw.toString('base64'));
  });

  it('verifies with xml-crypto\'s verifier and the SMP certificate; not with another certificate', () => {
    expect(verifiedBy(key.certificatePem, signed)).toBe(true);
    expect(verifiedBy(ap.certificate.toString(), signed)).toBe(false);
  });

  it('a document changed after signing fails: the endpoint, the certificate, a participant', () => {
    expect(verifiedBy(key.certificatePem, signed.replace('https://ap.example.test/as4', 'https://attacker.example/as4'))).toBe(false);
    expect(verifiedBy(key.certificatePem, signed.replace('0208:0123456749', '0208:0123456750'))).toBe(false);
    const certificate = ap.certificate.raw.toString('base64');
    // Another character than the one there: a fixed 'A' changed nothing when the certificate had one at 40.
    const changed = certificate[40] === 'A' ? 'B' : 'A';
    expect(verifiedBy(key.certificatePem, signed.replace(certificate, `${certificate.slice(0, 40)}${changed}${certificate.slice(41)}`))).toBe(false);
  });

  it('unsigned without a signing key (sandbox without PEPPOL_SMP_KEYSTORE)', () => {
    const unsigned = renderSignedServiceMetadata(pid, receivableDocumentTypesOf(pid)[0], endpoint('PLACEHOLDER'));
    expect(parseXml(unsigned).children.map((c) => c.name)).toEqual(['ServiceMetadata']);
  });

  it('an independent verifier agrees: xmlsec1 --verify against the test CA; the changed document fails', () => {
    const file = path.join(pki.dir, 'signed.xml');
    writeFileSync(file, signed);
    const verify = (target: string) => spawnSync('xmlsec1', ['--verify', '--trusted-pem', pki.caFile, target], { encoding: 'utf8' });
    const good = verify(file);
    expect({ status: good.status, stderr: good.stderr }).toMatchObject({ status: 0, stderr: expect.stringContaining('OK') });
    const tampered = path.join(pki.dir, 'tampered.xml');
    writeFileSync(tampered, signed.replace('https://ap.example.test/as4', 'https://attacker.example/as4'));
    expect(verify(tampered).status).not.toBe(0);
    // The certificate in KeyInfo is no trust by itself: trusting a CA that did not issue it, the same document fails.
    expect(spawnSync('xmlsec1', ['--verify', '--trusted-pem', path.join(pki.dir, 'other-ca.crt'), file]).status).not.toBe(0);
  });
});
