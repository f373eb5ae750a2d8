/**
 * The invoice's QR code as the AEAT specifies it
 * (shared/conformance/verifactu/DetalleEspecificacTecnCodigoQRfactura.txt): the ValidarQR URL of the
 * record (`nif`, `numserie` URL-encoded, `fecha` dd-mm-yyyy, `importe` with two decimals), on the
 * test portal in sandbox mode and the production host in live mode; the image per ISO/IEC 18004
 * with error correction level M, declared to print at 40x40 mm (the specification's 30x30 to 40x40 mm).
 */
import { crc32 } from 'node:zlib';
import QRCode from 'qrcode';

/** Where ValidarQR lives (section 5.1, "Sistema que emite facturas verificables"). */
export const VALIDAR_QR_URLS = {
  sandbox: 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR',
  live: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR',
} as const;

export type VerifactuMode = keyof typeof VALIDAR_QR_URLS;

/** Printed size the image declares (its PNG `pHYs`): the largest the specification allows. */
export const QR_SIZE_MM = 40;
/** Pixels per module: every module a whole number of pixels, so scaling to 40 mm stays sharp. */
const PIXELS_PER_MODULE = 4;

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

/**
 * The link as a PNG data URI (`data:image/png;base64,...`), 4 pixels per module, declaring (`pHYs`)
 * the resolution at which it prints 40x40 mm: as sharp as a 300 dpi rendering once printed, for a
 * fifth of the pixels to encode (measured: 5.7 ms against 26 ms per image on the bench machine).
 */
export async function qrPng(link: string): Promise<string> {
  const png = await QRCode.toBuffer(link, { errorCorrectionLevel: 'M', type: 'png', scale: PIXELS_PER_MODULE, margin: 4 });
  return `data:image/png;base64,${withPhysicalSize(png, QR_SIZE_MM).toString('base64')}`;
}

/** Inserts a `pHYs` chunk (pixels per metre) after IHDR so the image's width prints as `mm` millimetres. */
function withPhysicalSize(png: Buffer, mm: number): Buffer {
  const IHDR_END = 8 + 4 + 4 + 13 + 4;
  const ppm = Math.round(png.readUInt32BE(16) / (mm / 1000));
  const data = Buffer.alloc(9);
  data.writeUInt32BE(ppm, 0);
  data.writeUInt32BE(ppm, 4);
  data.writeUInt8(1, 8); // unit: metre
  const typeAndData = Buffer.concat([Buffer.from('pHYs', 'ascii'), data]);
  const chunk = Buffer.alloc(4 + typeAndData.length + 4);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 4 + typeAndData.length);
  return Buffer.concat([png.subarray(0, IHDR_END), chunk, png.subarray(IHDR_END)]);
}
