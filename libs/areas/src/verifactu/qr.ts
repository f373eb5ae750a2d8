/**
 * The invoice's QR code as the AEAT specifies it
 * (shared/conformance/verifactu/DetalleEspecificacTecnCodigoQRfactura.txt): the ValidarQR URL of the
 * record (`nif`, `numserie` URL-encoded, `fecha` dd-mm-yyyy, `importe` with two decimals), on the
 * test portal in sandbox mode and the production host in live mode; the image per ISO/IEC 18004
 * with error correction level M, for printing at 30x30 to 40x40 mm.
 */
import QRCode from 'qrcode';

/** Where ValidarQR lives (section 5.1, "Sistema que emite facturas verificables"). */
export const VALIDAR_QR_URLS = {
  sandbox: 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR',
  live: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR',
} as const;

export type VerifactuMode = keyof typeof VALIDAR_QR_URLS;

/** 40 mm at 300 dpi: the largest size the specification allows, sharp in print. */
export const QR_WIDTH_PX = 472;

export interface QrRecord {
  readonly issuerNif: string;
  readonly number: string;
  /** `dd-mm-yyyy`. */
  readonly issueDate: string;
  /** ImporteTotal, two decimals. */
  readonly total: string;
}

export function qrLink(mode: VerifactuMode, record: QrRecord): string {
  const query = [
    ['nif', record.issuerNif],
    ['numserie', record.number],
    ['fecha', record.issueDate],
    ['importe', record.total],
  ].map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
  return `${VALIDAR_QR_URLS[mode]}?${query.join('&')}`;
}

/** The link as a PNG data URI (`data:image/png;base64,...`). */
export function qrPng(link: string): Promise<string> {
  return QRCode.toDataURL(link, { errorCorrectionLevel: 'M', type: 'image/png', width: QR_WIDTH_PX, margin: 4 });
}
