/**
 * Documents people can read (#49): the renderers every area's printable view goes through (HTML, PDF)
 * and the reader of UBL documents the Peppol areas print from. README.md says what each area shows.
 */
export { renderHtml, escapeHtml } from './html';
export { renderPdf, type PdfOptions } from './pdf';
export { printableFromUbl, ublPrintable, type UblPrintOptions } from './from-ubl';
export { label, labelsOf, type LabelKey } from './labels';
export { pendingMark } from './marks';
export { amountText, partyOfProfile } from './parties';
