import type { Client } from './http';
import { eventually } from './stack';

/** A TIN of the non-individual form (C + digits, ending in 0) unique to this run. */
export const freshTin = (): string => `C${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 9)}0`;

/** GET a MyInvois document's state, and wait (30 s) until it reaches one. */
export function myInvoisDocuments(client: Client, supplier: () => string) {
  const stateOf = (key: string) => client.get(`/api/einvoice/documents/${encodeURIComponent(key)}`, { supplier_uuid: supplier() });
  const untilState = (key: string, state: string) =>
    eventually(`${key} ${state}`, async () => {
      const answer = await stateOf(key);
      return answer.body?.data?.state === state ? answer.body.data : undefined;
    }, 30_000);
  return { stateOf, untilState };
}
