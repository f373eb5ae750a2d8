/**
 * The QR of a regime's mark as modules (#49), drawn by both renderers as vector squares: sharp at any
 * print size, no image to encode. ISO/IEC 18004 by the `qrcode` package, error correction level M (the
 * level the AEAT's specification sets, and a fit for every regime's short URL or payload).
 */
import QRCode from 'qrcode';

/** The QR's modules, row by row: `dark(x, y)`. */
export interface QrModules {
  readonly size: number;
  dark(x: number, y: number): boolean;
}

export function qrModules(payload: string): QrModules {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (x, y) => Boolean(modules.get(y, x)) };
}

/**
 * The dark modules as rectangles, one per horizontal run of a row (a third of the squares to draw
 * for a typical code): `[x, y, width]` in modules.
 */
export function qrRuns(qr: QrModules): Array<readonly [number, number, number]> {
  const runs: Array<readonly [number, number, number]> = [];
  for (let y = 0; y < qr.size; y++) {
    let start = -1;
    for (let x = 0; x <= qr.size; x++) {
      const dark = x < qr.size && qr.dark(x, y);
      if (dark && start < 0) start = x;
      else if (!dark && start >= 0) {
        runs.push([start, y, x - start]);
        start = -1;
      }
    }
  }
  return runs;
}
