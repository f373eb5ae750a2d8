/**
 * KSeF's verification link of an invoice (the "KOD I" QR): `https://qr.ksef.mf.gov.pl/invoice/{NIP}/
 * {DD-MM-YYYY}/{SHA-256 of the invoice file, Base64URL}`, the test host `qr-test.ksef.mf.gov.pl` in
 * sandbox mode.
 */
import { createHash } from 'node:crypto';

export const KSEF_QR_HOSTS = { sandbox: 'https://qr-test.ksef.mf.gov.pl', live: 'https://qr.ksef.mf.gov.pl' } as const;

export function ksefQrLink(mode: keyof typeof KSEF_QR_HOSTS, invoice: { readonly sellerNip: string; readonly issueDate: string; readonly xml: string }): string {
  const [year, month, day] = invoice.issueDate.split('-');
  const hash = createHash('sha256').update(invoice.xml, 'utf8').digest('base64url');
  return `${KSEF_QR_HOSTS[mode]}/invoice/${invoice.sellerNip}/${day}-${month}-${year}/${hash}`;
}
