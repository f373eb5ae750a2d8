/**
 * The project's AFIP catalogs (catalog-data.ts) against the official oracle: django-afip's fixtures in
 * `shared/conformance/afip/` (AFIP's FEParamGet* answers as recorded in homologation). Every item, in
 * AFIP's order: the same code, description and validity dates.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conformanceDir } from '../conformance/official-validators';
import { CATALOGS, type CatalogName, catalog, receiverVatConditions } from './catalogs';

interface FixtureRow {
  readonly fields: { readonly code: string; readonly description: string; readonly valid_from?: string; readonly valid_to?: string | null; readonly cmp_clase?: string };
}

const fixture = (name: string): FixtureRow[] => JSON.parse(fs.readFileSync(path.join(conformanceDir, 'afip', `${name}.json`), 'utf8'));
/** django-afip writes ISO dates and null; AFIP (and the catalogs) yyyymmdd and the string "NULL". */
const afipDate = (date: string | null | undefined) => (date ? date.replace(/-/g, '') : 'NULL');

/** Each catalog route and the fixture of its FEParamGet* operation. */
const FIXTURES: Record<CatalogName, string> = {
  'voucher-types': 'receipttype',
  'concept-types': 'concepttype',
  'document-types': 'documenttype',
  rates: 'vattype',
  currencies: 'currencytype',
  'options-types': 'optionaltype',
  'tax-types': 'taxtype',
};

describe('#44 AFIP catalogs: the project\'s data equals the official fixtures', () => {
  it('covers every catalog route', () => expect(Object.keys(FIXTURES).sort()).toEqual(Object.keys(CATALOGS).sort()));

  it.each(Object.entries(FIXTURES) as Array<[CatalogName, string]>)('%s equals %s.json', (name, file) => {
    const expected = fixture(file).map(({ fields }) => ({
      Id: name === 'currencies' ? fields.code : Number(fields.code),
      Desc: fields.description,
      FchDesde: afipDate(fields.valid_from),
      FchHasta: afipDate(fields.valid_to),
    }));
    expect(expected.length).toBeGreaterThan(0);
    expect(catalog(name)).toEqual(expected);
  });

  it('the receivers\' VAT conditions equal clientvatcondition.json', () => {
    const expected = fixture('clientvatcondition').map(({ fields }) => ({ Id: Number(fields.code), Desc: fields.description, Cmp_Clase: fields.cmp_clase ?? '' }));
    expect(receiverVatConditions()).toEqual(expected);
  });
});
