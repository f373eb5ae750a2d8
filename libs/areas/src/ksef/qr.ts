/**
 * KSeF's verification link of an invoice (the "KOD I" QR): `https://qr.ksef.mf.gov.pl/invoice/{NIP}/
 * {DD-MM-YYYY}/{SHA-256 of the invoice file, Base64URL}`, the test host `qr-test.ksef.mf.gov.pl` in
 * sandbox mode.
 */
import { createHash } from 'node:crypto';

export const KSEF_QR_HOSTS = { sandbox: 'https://qr-test.ksef.mf.gov.pl', live: 'https://qr.ksef.mf.gov.pl' } as const;

export function ksefQrLink(mode: keyof typeof KSEF_QR_HOSTS, invoice: { readonly sellerNip: string; readonly issueDate: string; readonly xml: string }): string {
  return ksefQrLinkOfHash(mode, invoice.sellerNip, invoice.issueDate, createHash('sha256').update(invoice.xml, 'utf8').digest('hex'));
}

/** The same from the file's SHA-256 in hex (as the documents read model keeps it). */
export function ksefQrLinkOfHash(mode: keyof typeof KSEF_QR_HOSTS, sellerNip: string, issueDate: string, sha256Hex: string): string {
  const [year, month, day] = issueDate.split('-');
  return `${KSEF_QR_HOSTS[mode]}/invoice/${sellerNip}/${day}-${month}-${year}/${Buffer.from(sha256Hex, 'hex').toString('base64url')}`;
}
