/**
 * Party blocks of the UAE document (seed 001 "Parties", issue 10's decided names). Address parts
 * are named alike in every block: `street_address`, `city`, `emirates_code` (for a foreign
 * address the foreign subdivision as free text), `country_code`.
 */
import { z } from 'zod';
import { country, date } from './schema-fields';

/** Legal registration (IBT-030 / IBT-047) with its type (BTAE-15/16) and issuing authority or passport country (BTAE-11/12, 18/19). */
export const legalId = z.object({
  id: z.string(),
  scheme: z.enum(['TL', 'CL', 'EID', 'PAS', 'CD']).optional(),
  authority: z.string().optional(),
});

/** A party identifier (IBT-046, IBT-060) with its optional ICD scheme. */
export const identifier = z.object({ id: z.string(), scheme_id: z.string().optional() });

const addressParts = {
  street_address: z.string().optional(),
  city: z.string().optional(),
  emirates_code: z.string().optional(),
  country_code: country.optional(),
};

/** The buyer; on a self-billed document (389, 261) the supplier (seed "Parties"). */
export const receivingParty = z.object({
  /** Mandatory, checked by hand (mandatory.ts): it routes the document. */
  peppol_id: z.string().superRefine((v, ctx) => {
    if (!/^\d{4}:\S+$/.test(v)) ctx.addIssue({ code: 'custom', message: `Expected a Peppol participant id written <scheme>:<identifier> such as 0235:1234567890, received "${v}"` });
  }).optional(),
  legal_name: z.string(),
  ...addressParts,
  street_address: z.string(),
  trn: z.string().optional(),
  legal_id: legalId.optional(),
  identifiers: z.array(identifier).optional(),
});

/**
 * Overrides of the issuer's registered profile (seed: "send values only to override");
 * `peppol_id` and `legal_name` always come from the registration, so they are not kept.
 */
export const issuingParty = z.object({
  trading_name: z.string().optional(),
  ...addressParts,
  trn: z.string().optional(),
  legal_id: legalId.extend({ scheme: z.enum(['TL', 'EID', 'PAS', 'CD']) }).optional(),
});

/** IBG-11: name, postal address and VAT identifier are checked by the rule phase (ibr-018/019/020/056). */
export const taxRepresentative = z.object({ name: z.string().optional(), ...addressParts, trn: z.string().optional() });

/** IBG-10: `name` is mandatory once the block says anything (ibr-017, rule phase); `{}` is dropped. */
export const payeeParty = z.object({
  name: z.string().optional(),
  identifiers: z.array(identifier).optional(),
  legal_id: z.object({ id: z.string() }).optional(),
});

/** The four-part delivery address (seed "Flags": all four parts, `emirates_code` even abroad). */
const deliveryAddress = z.object({ street_address: z.string(), city: z.string(), emirates_code: z.string(), country_code: country });

/** IBG-13. */
export const delivery = z.object({
  date: date.optional(),
  location_id: z.string().optional(),
  party_name: z.string().optional(),
  address: deliveryAddress.optional(),
});

/** IBG-14. */
export const invoicePeriod = z.object({ start_date: date, end_date: date });
