import { randomInt } from 'node:crypto';
import type { Client } from './http';
import { onboardingBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { eventually } from './stack';

/**
 * A TIN of the non-individual form (C + digits, ending in 0), random over 9·10^9 values: an onboarded
 * TIN is also a Peppol participant (0230 + TIN), which only one supplier of a database may hold, and
 * suites running in parallel must not meet (a timestamp repeats within a millisecond).
 */
export const freshTin = (): string => `C${randomInt(1_000_000_000, 9_999_999_999)}0`;

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

/** Onboards a Malaysian supplier with a fresh TIN (sandbox credentials `clientId`); its supplier_uuid. */
export async function onboardMyInvoisSupplier(client: Client, clientId: string): Promise<string> {
  const onboarded = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: freshTin(), client_id: clientId }));
  expect(onboarded.status).toBe(201);
  return onboarded.body.data.supplier_uuid;
}
