import { sha256Base64 } from './live/ksef-crypto';

/** What KSeF reads of the invoice itself: the seller (Podmiot1 NIP), the kind and the number (P_2). */
export function keyOf(xml: string): { nip: string; kind: string; number: string } {
  const seller = /<Podmiot1>[\s\S]*?<NIP>(\d{10})<\/NIP>/.exec(xml)?.[1] ?? '';
  const kind = /<RodzajFaktury>(\w+)<\/RodzajFaktury>/.exec(xml)?.[1] ?? '';
  const number = /<P_2>([^<]*)<\/P_2>/.exec(xml)?.[1] ?? '';
  return { nip: seller, kind, number };
}

/** KSeF's invoice hash: SHA-256 of the file, Base64. */
export const invoiceHash = (xml: string) => sha256Base64(xml);
