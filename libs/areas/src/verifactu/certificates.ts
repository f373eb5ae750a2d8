/**
 * Issuers' own certificates for the AEAT's mutual TLS: checked at onboarding (a PEM certificate and
 * the private key that goes with it, not expired), then kept sealed in `supplier_secrets`
 * (onboarding `secrets`) and opened by the live connector for that issuer's calls only.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { type FieldIssue, type SecretBox, issue } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import { openSupplierSecrets } from '../shared/supplier-secrets';

export const CERTIFICATE_SECRET = 'verifactu.certificate';
export const KEY_SECRET = 'verifactu.private_key';

/** Both or neither; a certificate that parses, is valid today, and matches the key. */
export function certificateIssues(body: { certificate_pem?: string; private_key_pem?: string }): FieldIssue[] {
  const { certificate_pem: cert, private_key_pem: key } = body;
  if (cert === undefined && key === undefined) return [];
  if (!cert || !key) return [issue(cert ? 'private_key_pem' : 'certificate_pem', 'VERIFACTU.CERTIFICATE', 'certificate_pem and private_key_pem go together.')];
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    return [issue('certificate_pem', 'VERIFACTU.CERTIFICATE', 'certificate_pem is not a PEM X.509 certificate.')];
  }
  const now = Date.now();
  if (Date.parse(x509.validTo) < now || Date.parse(x509.validFrom) > now) {
    return [issue('certificate_pem', 'VERIFACTU.CERTIFICATE', `The certificate is not valid today (valid from ${x509.validFrom} to ${x509.validTo}).`)];
  }
  try {
    if (!x509.checkPrivateKey(createPrivateKey(key))) return [issue('private_key_pem', 'VERIFACTU.CERTIFICATE', 'private_key_pem is not the key of this certificate.')];
  } catch {
    return [issue('private_key_pem', 'VERIFACTU.CERTIFICATE', 'private_key_pem is not a PEM private key (unencrypted).')];
  }
  return [];
}

/** The issuer's certificate and key, opened from `supplier_secrets`; undefined when it gave none. */
export function issuerCertificates(query: ConnectorQuery, box: SecretBox) {
  return async (supplierId: string): Promise<{ cert: string; key: string } | undefined> => {
    const byName = await openSupplierSecrets(query, box, supplierId, [CERTIFICATE_SECRET, KEY_SECRET]);
    const cert = byName.get(CERTIFICATE_SECRET);
    const key = byName.get(KEY_SECRET);
    return cert && key ? { cert, key } : undefined;
  };
}
