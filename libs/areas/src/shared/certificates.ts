/**
 * A supplier's own certificate for its authority (the AEAT's mutual TLS, AFIP's signed login), checked at
 * onboarding before it is sealed (onboarding `secrets`): a PEM certificate and the private key that goes
 * with it, valid today; opened by the live connector for that supplier's calls only.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { type FieldIssue, type SecretBox, issue } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import { openSupplierSecrets } from './supplier-secrets';

/** Both or neither; a certificate that parses, is valid today, and matches the key. */
export function certificateIssues(body: { certificate_pem?: string; private_key_pem?: string }, code: string): FieldIssue[] {
  const { certificate_pem: cert, private_key_pem: key } = body;
  if (cert === undefined && key === undefined) return [];
  if (!cert || !key) return [issue(cert ? 'private_key_pem' : 'certificate_pem', code, 'certificate_pem and private_key_pem go together.')];
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    return [issue('certificate_pem', code, 'certificate_pem is not a PEM X.509 certificate.')];
  }
  const now = Date.now();
  if (Date.parse(x509.validTo) < now || Date.parse(x509.validFrom) > now) {
    return [issue('certificate_pem', code, `The certificate is not valid today (valid from ${x509.validFrom} to ${x509.validTo}).`)];
  }
  try {
    if (!x509.checkPrivateKey(createPrivateKey(key))) return [issue('private_key_pem', code, 'private_key_pem is not the key of this certificate.')];
  } catch {
    return [issue('private_key_pem', code, 'private_key_pem is not a PEM private key (unencrypted).')];
  }
  return [];
}

/** A supplier's certificate and key, opened from `supplier_secrets` under the area's names; undefined when it gave none. */
export function supplierCertificates(query: ConnectorQuery, box: SecretBox, names: { readonly certificate: string; readonly key: string }) {
  return async (supplierId: string): Promise<{ cert: string; key: string } | undefined> => {
    const byName = await openSupplierSecrets(query, box, supplierId, [names.certificate, names.key]);
    const cert = byName.get(names.certificate);
    const key = byName.get(names.key);
    return cert && key ? { cert, key } : undefined;
  };
}
