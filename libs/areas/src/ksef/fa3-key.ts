import { rootNamed, textAt } from '../shared/xml-read';
import { sha256Base64 } from './live/ksef-crypto';

/**
 * What KSeF reads of the invoice itself: the seller (Podmiot1 NIP), the kind and the number (P_2), by
 * local names; all empty for a text that is no FA XML (KSeF's structural check refuses it: fa3-check.ts).
 */
export function keyOf(xml: string): { nip: string; kind: string; number: string } {
  const root = rootNamed(xml, 'Faktura');
  return {
    nip: textAt(root, 'Podmiot1', 'DaneIdentyfikacyjne', 'NIP') ?? '',
    kind: textAt(root, 'Fa', 'RodzajFaktury') ?? '',
    number: textAt(root, 'Fa', 'P_2') ?? '',
  };
}

/** KSeF's invoice hash: SHA-256 of the file, Base64. */
export const invoiceHash = (xml: string) => sha256Base64(xml);
