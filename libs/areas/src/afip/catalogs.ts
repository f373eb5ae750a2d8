/**
 * AFIP's seven catalogs as WSFEv1's `FEParamGet*` return them (`{Id, Desc, FchDesde, FchHasta}`, dates
 * `yyyymmdd`, `FchHasta` the string "NULL" when open-ended), and the receivers' VAT conditions
 * (`FEParamGetCondicionIvaReceptor`). The sandbox serves AFIP's own data, read from
 * `shared/conformance/afip/` (django-afip's fixtures, which match AFIP's recorded answers); never copied here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { conformanceDir } from '../conformance/location';

export interface CatalogItem {
  readonly Id: number | string;
  readonly Desc: string;
  readonly FchDesde: string;
  readonly FchHasta: string;
}

/** The seed's catalog routes and the fixture each reads (AFIP's operation in the comment). */
export const CATALOGS = {
  'voucher-types': 'receipttype', // FEParamGetTiposCbte
  'concept-types': 'concepttype', // FEParamGetTiposConcepto
  'document-types': 'documenttype', // FEParamGetTiposDoc
  rates: 'vattype', // FEParamGetTiposIva
  currencies: 'currencytype', // FEParamGetTiposMonedas (string ids: PES, DOL…)
  'options-types': 'optionaltype', // FEParamGetTiposOpcional
  'tax-types': 'taxtype', // FEParamGetTiposTributos
} as const;

export type CatalogName = keyof typeof CATALOGS;

interface Fixture {
  readonly fields: { readonly code: string; readonly description: string; readonly valid_from?: string; readonly valid_to?: string | null; readonly cmp_clase?: string };
}

const yyyymmdd = (date: string | null | undefined) => (date ? date.replace(/-/g, '') : 'NULL');
const cache = new Map<string, readonly Fixture[]>();

function fixture(name: string): readonly Fixture[] {
  let rows = cache.get(name);
  if (!rows) {
    rows = JSON.parse(readFileSync(path.join(conformanceDir, 'afip', `${name}.json`), 'utf8')) as Fixture[];
    cache.set(name, rows);
  }
  return rows;
}

/** One catalog, in AFIP's order; ids are numbers except the currencies'. */
export function catalog(name: CatalogName): CatalogItem[] {
  return fixture(CATALOGS[name]).map(({ fields }) => ({
    Id: name === 'currencies' ? fields.code : Number(fields.code),
    Desc: fields.description,
    FchDesde: yyyymmdd(fields.valid_from),
    FchHasta: yyyymmdd(fields.valid_to),
  }));
}

/** The receivers' VAT conditions (`CondicionIVAReceptorId`) and the voucher classes each may receive. */
export function receiverVatConditions(): Array<{ Id: number; Desc: string; Cmp_Clase: string }> {
  return fixture('clientvatcondition').map(({ fields }) => ({ Id: Number(fields.code), Desc: fields.description, Cmp_Clase: fields.cmp_clase ?? '' }));
}
