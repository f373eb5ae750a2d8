/**
 * The XML signature of a Peppol SMP 1.x `SignedServiceMetadata` (issue #46): an enveloped XMLDSig
 * signature over the whole document (`Reference URI=""`, the enveloped-signature transform, then
 * inclusive C14N named as well), appended to the root after `ServiceMetadata` as the SMP 1.x schema
 * orders them, its KeyInfo the SMP certificate (`X509Data/X509Certificate`).
 * The algorithms are the ones the Peppol SMP specification names and phoss SMP (the reference SMP,
 * `SMPKeyManager.signXML`) produces for the Peppol REST type: canonicalization inclusive C14N 1.0
 * (exclusive before SMP spec 1.2.0, inclusive since 1 May 2022), RSA-SHA256 and a SHA-256 digest (SMP
 * spec 1.3.0, where SHA-1 was before). A sender's SMP client verifies what these name, so a signature
 * made another way fails there even if it is valid XMLDSig.
 * xml-crypto (node-saml): the maintained XMLDSig library of Node, which the SAML libraries build on.
 */
import type { KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

export const SMP_SIGNATURE_ALGORITHMS = {
  canonicalization: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
  envelopedSignature: 'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
} as const;

/** The SMP certificate (PEM) and its private key. */
export interface SmpSigningKey {
  readonly certificatePem: string;
  readonly privateKey: KeyObject;
}

/** `xml` (a SignedServiceMetadata without its signature) signed with `key`. */
export function signServiceMetadata(xml: string, key: SmpSigningKey): string {
  const signature = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificatePem,
    canonicalizationAlgorithm: SMP_SIGNATURE_ALGORITHMS.canonicalization,
    signatureAlgorithm: SMP_SIGNATURE_ALGORITHMS.signature,
  });
  signature.addReference({
    xpath: '/*',
    isEmptyUri: true,
    digestAlgorithm: SMP_SIGNATURE_ALGORITHMS.digest,
    // The canonicalization a verifier applies by itself after the enveloped transform (XMLDSig §4.4.3.2: a
    // node-set is digested as its inclusive C14N), named: xml-crypto digests a transform chain ending in a
    // node-set as its own serialisation when signing, not as C14N.
    transforms: [SMP_SIGNATURE_ALGORITHMS.envelopedSignature, SMP_SIGNATURE_ALGORITHMS.canonicalization],
  });
  signature.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
  return signature.getSignedXml();
}
