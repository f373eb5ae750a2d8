/**
 * #44: the AFIP catalogs are the project's own data. A clone or the image has no `shared/conformance`
 * beside it: the catalogs module must answer without it (before, every catalog route answered 500).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

describe('#44 AFIP catalogs read nothing outside the repository', () => {
  const saved = process.env.CONFORMANCE_ORACLE_DIR;
  let empty: string;

  beforeAll(() => {
    empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-conformance-'));
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.CONFORMANCE_ORACLE_DIR;
    else process.env.CONFORMANCE_ORACLE_DIR = saved;
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it('serves every catalog and the receivers\' VAT conditions with the tests oracle (CONFORMANCE_ORACLE_DIR) an empty folder', () => {
    process.env.CONFORMANCE_ORACLE_DIR = empty;
    jest.isolateModules(() => {
      // Loaded afresh, so the setting above is the one any module of the area would read.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { CATALOGS, catalog, receiverVatConditions } = require('./catalogs') as typeof import('./catalogs');
      for (const name of Object.keys(CATALOGS) as Array<keyof typeof CATALOGS>) expect([name, catalog(name).length > 0]).toEqual([name, true]);
      expect(catalog('voucher-types')[0]).toEqual({ Id: 1, Desc: 'Factura A', FchDesde: '20100917', FchHasta: 'NULL' });
      expect(receiverVatConditions().map((c) => c.Id)).toEqual([1, 6, 13, 16, 4, 7, 8, 9, 10, 15, 5]);
    });
  });

  it('no production module of the area reaches for the official artefacts (they are the tests\' oracle only)', () => {
    const sources = fs.readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.startsWith(`testing${path.sep}`));
    const reaching = sources.filter((file) => /from '(\.\.\/)+conformance\//.test(fs.readFileSync(path.join(__dirname, file), 'utf8')));
    expect(reaching).toEqual([]);
  });
});
