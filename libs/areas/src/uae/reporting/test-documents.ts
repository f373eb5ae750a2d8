/**
 * UBL for the reporting specs: the official examples as this area renders them (../fixtures, one
 * request per official PINT AE example) and small variations of the unit specs' invoice
 * (../fixtures/bodies.ts). Test support only; nothing in the connector imports it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseUaeDocument } from '../document';
import { invoice, issuer } from '../fixtures/bodies';
import { renderUae, type UaeIssuer } from '../render';

/** One official example, rendered. */
export interface RenderedExample {
  readonly file: string;
  readonly example: string;
  readonly issuer: UaeIssuer;
  readonly xml: string;
}

const FIXTURES = path.join(__dirname, '..', 'fixtures');

function render(request: Record<string, unknown>, by: UaeIssuer, uuid: string): string {
  const parsed = parseUaeDocument(request);
  if ('issues' in parsed) throw new Error(`Not a valid UAE request: ${JSON.stringify(parsed.issues)}`);
  return renderUae(parsed.document, by, { uuid }).xml;
}

/** Every official example's request (fixtures/*.json) rendered by renderUae. */
export function renderedExamples(uuid = '4b6000ca-0128-4bdc-99a6-406f2909247f'): RenderedExample[] {
  return fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).sort().map((file) => {
    type Fixture = { example: string; issuer: UaeIssuer; request: Record<string, unknown> };
    const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as Fixture;
    return { file, example: fixture.example, issuer: fixture.issuer, xml: render(fixture.request, fixture.issuer, uuid) };
  });
}

/** The unit specs' standard-rated invoice (fixtures/bodies.ts), with overrides, issued by `by`. */
export function renderedInvoice(over: Record<string, unknown> = {}, uuid = 'b7f74c42-5e5a-4b9d-8f00-000000000001', by: UaeIssuer = issuer): string {
  return render(invoice(over), by, uuid);
}

/** An issuer registered under `0235:<tin>`, with a TRN (by default the TIN + `00003`) or, for `null`, none. */
export function issuerWith(tin: string, trn: string | null = `${tin}00003`): UaeIssuer {
  const { trn: _trn, ...rest } = issuer;
  return { ...rest, peppolId: `0235:${tin}`, ...(trn ? { trn } : {}) };
}
