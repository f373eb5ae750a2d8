/**
 * AFIP's seven catalogs as WSFEv1's `FEParamGet*` return them (`{Id, Desc, FchDesde, FchHasta}`, dates
 * `yyyymmdd`, `FchHasta` the string "NULL" when open-ended), and the receivers' VAT conditions
 * (`FEParamGetCondicionIvaReceptor`). The sandbox serves the project's own copy of AFIP's data
 * (catalog-data.ts), compiled in: nothing is read from outside the repository at run time.
 */
import {
  CONCEPT_TYPES,
  CURRENCIES,
  DOCUMENT_TYPES,
  OPTIONAL_TYPES,
  RECEIVER_VAT_CONDITIONS,
  TAX_TYPES,
  VAT_RATES,
  VOUCHER_TYPES,
  type CatalogItem,
  type ReceiverVatCondition,
} from './catalog-data';

export type { CatalogItem, ReceiverVatCondition };

/** The seed's catalog routes and their data (AFIP's operation in the comment). */
export const CATALOGS = {
  'voucher-types': VOUCHER_TYPES, // FEParamGetTiposCbte
  'concept-types': CONCEPT_TYPES, // FEParamGetTiposConcepto
  'document-types': DOCUMENT_TYPES, // FEParamGetTiposDoc
  rates: VAT_RATES, // FEParamGetTiposIva
  currencies: CURRENCIES, // FEParamGetTiposMonedas
  'options-types': OPTIONAL_TYPES, // FEParamGetTiposOpcional
  'tax-types': TAX_TYPES, // FEParamGetTiposTributos
} as const satisfies Record<string, readonly CatalogItem[]>;

export type CatalogName = keyof typeof CATALOGS;

/** One catalog, in AFIP's order (a copy: callers may not change the project's data). */
export function catalog(name: CatalogName): CatalogItem[] {
  return CATALOGS[name].map((item) => ({ ...item }));
}

/** The receivers' VAT conditions (`CondicionIVAReceptorId`) and the voucher classes each may receive. */
export function receiverVatConditions(): ReceiverVatCondition[] {
  return RECEIVER_VAT_CONDITIONS.map((condition) => ({ ...condition }));
}
