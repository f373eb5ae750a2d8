/**
 * `cli documents examples [dir]` (#49): one example PDF and HTML page per area that prints its documents,
 * into docs/examples/ (committed), made the way the gateway makes them: the area's README example onboarded
 * and parsed by its own codec, rendered (UBL: as delivered; Spain: its record linked, with its QR link), built
 * by its `printable` and printed by the shared renderers. No stack: pure but for the files written. A PNG of
 * the first page of Spain's, for the README, where poppler's `pdftoppm` is installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type AreaDefinition, type StoredDocument, afipExamples, findArea, firsExamples, jofotaraExamples, ksefExamples, myinvois, peppolExamples, renderHtml, renderPdf, uae, verifactuExamples } from '@einvoice/areas';

/** Per area: the README's onboarding and a document showing what its view prints. */
interface Example {
  readonly onboard: unknown;
  readonly document: unknown;
  /** The authority's answer where the view shows it: a sample of its form (the e2e test prints the sandbox's real one). */
  readonly receipt?: Record<string, unknown>;
  /** Its report's state where not `reported`: `pending` shows the "not yet authorised" mark. */
  readonly reportState?: string;
  /** The route's variant its codec reads (Poland: the `transport_mode` header). */
  readonly variant?: string;
}

const EXAMPLES: Readonly<Record<string, Example>> = {
  be: { onboard: peppolExamples.be.onboard.first.value, document: (peppolExamples.be.invoice as Record<string, { value: unknown }>).twoRatesWithPayment.value },
  de: { onboard: peppolExamples.de.onboard.first.value, document: (peppolExamples.de.invoice as Record<string, { value: unknown }>).domestic.value },
  sg: { onboard: peppolExamples.sg.onboard.first.value, document: (peppolExamples.sg.invoice as Record<string, { value: unknown }>).foreignCurrency.value },
  ae: { onboard: uae.uaeExamples.participant.first.value, document: uae.uaeExamples.document.foreignCurrency.value },
  es: { onboard: verifactuExamples.onboard.first.value, document: verifactuExamples.generate.first.value },
  ar: {
    onboard: afipExamples.onboard.first.value,
    document: { ...(afipExamples.createVoucher.first.value as object), CbteFch: '20261125' },
    // A sample authorisation, in the form of AFIP's answer (FECAESolicitar): CAE and its due date.
    receipt: { Resultado: 'A', CAE: '76543210987654', CAEFchVto: '20261205', CbteDesde: 1, CbteHasta: 1, CbteFch: '20261125', Observaciones: [], Errors: [] },
  },
  // Before their authority's answer: "not yet authorised" where the mark goes (the e2e test prints the accepted ones).
  // Poland's in euros: its VAT in PLN too (FA(3) P_14_xW).
  pl: { onboard: ksefExamples.onboard.first.value, document: ksefExamples.generate.euroWithVat.value, variant: 'ksef', reportState: 'pending' },
  jo: { onboard: jofotaraExamples.onboard.first.value, document: jofotaraExamples.generate.first.value, reportState: 'pending' },
  ng: { onboard: firsExamples.onboard.first.value, document: firsExamples.generate.first.value, reportState: 'pending' },
  // Valid at MyInvois: a sample of its ids (Get Submission's uuid and longId) make the validation link; its PINT MY copy attached.
  my: {
    onboard: myinvois.myInvoisExamples.onboard.first.value,
    document: myinvois.myInvoisExamples.invoice.first.value,
    variant: 'invoice',
    receipt: { uuid: 'F9D425P6DS7D8IU4A8R5EY2K10', submissionUid: 'HJSD135P2S7D8IU4A8R5EY2K10', status: 'Valid', longId: 'LIJAF97HJJKH8298KHADH09908570FDKK9S2LSIUHF871225' },
  },
};

/** Fixed, so the committed files change only when the rendering does. */
const DOCUMENT_ID = '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a';
const CREATED_AT = new Date('2026-11-25T10:00:00Z');

/** What the gateway would have stored of the example once accepted. */
async function stored(area: AreaDefinition, example: Example): Promise<StoredDocument> {
  const supplier = area.onboarding!.parse(example.onboard);
  const documents = area.documents!;
  const parsed = documents.parse(example.document, supplier, example.variant, DOCUMENT_ID);
  let fields = parsed.fields;
  let xml: string | null = parsed.rendered?.bytes ?? null;
  let sha256 = parsed.rendered?.sha256 ?? null;
  let reported: StoredDocument['reported'];
  if (documents.chain) {
    const prepared = await documents.chain.prepare?.(parsed, supplier);
    const linked = await documents.chain.link(parsed, supplier, { documentId: DOCUMENT_ID, at: CREATED_AT, prepared });
    fields = { ...fields, ...linked.fields };
    sha256 = linked.document.sha256;
  } else if (documents.render && !parsed.rendered && area.authority.answer !== 'none') {
    const rendered = documents.render(parsed, supplier, DOCUMENT_ID);
    sha256 = rendered.sha256;
    reported = { bytes: rendered.bytes, mediaType: rendered.mediaType };
  }
  xml ??= area.exchange?.envelope(parsed, supplier, DOCUMENT_ID).xml ?? null;
  return {
    id: DOCUMENT_ID, number: parsed.number, type: parsed.type, direction: 'outgoing', fields, receipt: example.receipt ?? null,
    reportState: area.authority.answer === 'none' ? null : (example.reportState ?? 'reported'), renderedSha256: sha256, xml, createdAt: CREATED_AT.toISOString(), supplier,
    // Malaysia: the document as submitted and its PINT MY copy, as its report holds them.
    ...(area.printable?.readsReported ? { reported: reported ?? null } : {}),
    ...(area.printable?.readsPeppolCopy ? { peppolCopyXml: documents.peppolCopy?.(parsed, supplier, DOCUMENT_ID)?.xml ?? null } : {}),
  };
}

/** Writes `<area>.pdf` and `<area>.html` per area into `dir`; returns the files written. */
export async function writeDocumentViewExamples(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [code, example] of Object.entries(EXAMPLES)) {
    const area = findArea(code);
    if (!area?.printable) throw new Error(`Area ${code} prints no documents`);
    const view = area.printable.build(
      await stored(area, example).catch((error: Error & { issues?: unknown }) => {
        throw new Error(`The ${code} example is refused: ${error.message} ${JSON.stringify(error.issues ?? [])}`);
      }),
    );
    const pdf = path.join(dir, `${code}.pdf`);
    writeFileSync(pdf, await renderPdf(view, { createdAt: CREATED_AT }));
    writeFileSync(path.join(dir, `${code}.html`), renderHtml(view));
    written.push(pdf, path.join(dir, `${code}.html`));
  }
  // The README shows Spain's first page (its QR, caption and legend): where poppler is installed.
  const png = spawnSync('pdftoppm', ['-r', '60', '-f', '1', '-l', '1', '-png', '-singlefile', path.join(dir, 'es.pdf'), path.join(dir, 'es')]);
  if (png.status === 0) written.push(path.join(dir, 'es.png'));
  return written;
}
