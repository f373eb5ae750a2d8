/** Seller (BG-4) and buyer (BG-7) of a BIS 3.0 / PINT SG document. */
import { stated, type UblParty } from '../ubl';
import { identifierSchemes, resolveIdentifier } from './identifiers';
import type { AreaProfile } from './profiles';
import type { CustomerParty, Supplier } from './schema';

/** What the document's categories allow to be shown about tax ids (BR-O-02, BR-NG-02-GST-SG). */
export interface TaxIdPolicy {
  readonly sellerVat: boolean;
  readonly buyerVat: boolean;
}

function canonical(scheme: string, id: string): string {
  return identifierSchemes[scheme]?.normalize(id) ?? id;
}

/** The supplier's VAT/GST number as BT-31 wants it; SG falls back to the UEN (IRAS issues UEN-based GST numbers). */
export function sellerVatId(p: AreaProfile, supplier: Supplier): string | undefined {
  const vat = supplier.identifiers.find((i) => identifierSchemes[i.scheme]?.vat);
  if (vat) return canonical(vat.scheme, vat.id);
  const uen = supplier.identifiers.find((i) => i.scheme === 'SG:UEN');
  return p.code === 'sg' && uen ? canonical(uen.scheme, uen.id) : undefined;
}

/** BT-34: the first onboarded identifier in the area's preferred order. */
export function sellerEndpoint(p: AreaProfile, supplier: Supplier): { scheme: string; id: string } {
  for (const scheme of p.identifierSchemes) {
    const found = supplier.identifiers.find((i) => i.scheme === scheme && scheme !== 'SG:GST');
    if (found) return found;
  }
  throw new RangeError('The supplier has no identifier usable as a Peppol endpoint');
}

/** The seller (BG-4) as the supplier was onboarded. */
export function sellerParty(p: AreaProfile, supplier: Supplier, policy: TaxIdPolicy): UblParty {
  const endpoint = sellerEndpoint(p, supplier);
  const ep = resolveIdentifier(endpoint.scheme, endpoint.id);
  const legal = supplier.identifiers.find((i) => identifierSchemes[i.scheme]?.legal);
  const legalScheme = legal ? identifierSchemes[legal.scheme] : undefined;
  // BT-29: identifiers that are neither tax nor legal ids (the Leitweg-ID) identify the seller.
  const others = supplier.identifiers.filter((i) => { const s = identifierSchemes[i.scheme]; return s && !s.vat && !s.legal; });
  const vat = policy.sellerVat ? sellerVatId(p, supplier) : undefined;
  return {
    endpoint: { id: ep?.value ?? endpoint.id, schemeId: ep?.icd },
    identifications: others.map((i) => ({ id: canonical(i.scheme, i.id), schemeId: identifierSchemes[i.scheme].icd })),
    address: {
      street: stated(supplier.street), // BT-35
      city: stated(supplier.city), // BT-37
      postalZone: stated(supplier.postalCode), // BT-38
      countrySubentity: stated(supplier.county === 'NA' ? undefined : supplier.county), // BT-39
      country: supplier.country, // BT-40
    },
    taxSchemes: vat ? [{ companyId: vat, taxScheme: p.taxSchemeId }] : [], // BT-31
    legalEntity: {
      registrationName: supplier.registeredName, // BT-27
      // BT-30; the KBO number carries its ICD (0208), the UEN is written bare as in the PINT SG examples.
      companyId: legal && legalScheme ? { id: canonical(legal.scheme, legal.id), schemeId: p.code === 'sg' ? undefined : legalScheme.icd } : undefined,
    },
    contact: { name: stated(supplier.contactName), telephone: stated(supplier.contactNumber), email: stated(supplier.contactEmail) }, // BT-41..43
  };
}

/** The buyer (BG-7); Identifiers[0] is the buyer's Peppol address (BT-49). */
export function buyerParty(p: AreaProfile, customer: CustomerParty, policy: TaxIdPolicy): UblParty {
  const resolved = customer.Identifiers.map((i) => ({ ...i, r: resolveIdentifier(i.Scheme, i.ID) }));
  const [first] = resolved;
  const vat = policy.buyerVat
    ? resolved.find((i) => i.r?.vat && (p.taxSchemeId === 'VAT' ? i.Scheme !== 'SG:GST' : i.Scheme === 'SG:GST'))
    : undefined;
  const legal = resolved.find((i) => i.r?.legal);
  return {
    endpoint: { id: first.r?.value ?? first.ID, schemeId: first.r?.icd ?? first.Scheme },
    address: {
      street: stated(customer.address.Street), // BT-50
      city: stated(customer.address.City), // BT-52
      postalZone: stated(customer.address.ZipCode), // BT-53
      country: customer.address.Country, // BT-55
    },
    taxSchemes: vat ? [{ companyId: vat.r?.value ?? vat.ID, taxScheme: p.taxSchemeId }] : [], // BT-48
    legalEntity: {
      registrationName: customer.RegisteredName, // BT-44
      companyId: legal?.r ? { id: legal.r.value.replace(/^SGUEN/, ''), schemeId: p.code === 'sg' ? undefined : legal.r.icd } : undefined, // BT-47
    },
  };
}
