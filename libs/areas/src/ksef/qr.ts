/**
 * KSeF's verification link of an invoice (the "KOD I" QR): `https://qr.ksef.mf.gov.pl/invoice/{NIP}/
 * {DD-MM-YYYY}/{SHA-256 of the invoice file, Base64URL}`, on the host of the KSeF environment the
 * invoice went to (ksef-docs `srodowiska.md`): `qr-test` for the sandbox and KSeF's test environment.
 */
import { createHash } from 'node:crypto';

export const KSEF_QR_HOSTS = { test: 'https://qr-test.ksef.mf.gov.pl', demo: 'https://qr-demo.ksef.mf.gov.pl', prod: 'https://qr.ksef.mf.gov.pl' } as const;

export function ksefQrLink(environment: keyof typeof KSEF_QR_HOSTS, invoice: { readonly sellerNip: string; readonly issueDate: string; readonly xml: string }): string {
  return ksefQrLinkOfHash(environment, invoice.sellerNip, invoice.issueDate, createHash('sha256').update(invoice.xml, 'utf8').digest('hex'));
}

/** The same from the file's SHA-256 in hex (as the documents read model keeps it). */
export function ksefQrLinkOfHash(environment: keyof typeof KSEF_QR_HOSTS, sellerNip: string, issueDate: string, sha256Hex: string): string {
  const [year, month, day] = issueDate.split('-');
  return `${KSEF_QR_HOSTS[environment]}/invoice/${sellerNip}/${day}-${month}-${year}/${Buffer.from(sha256Hex, 'hex').toString('base64url')}`;
}
