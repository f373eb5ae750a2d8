import { inflateSync } from 'node:zlib';
import { QR_SIZE_MM, qrLink, qrPng } from './qr';

describe('VeriFactu QR', () => {
  it('is the ValidarQR link of the AEAT example, URL-encoded (DetalleEspecificacTecnCodigoQRfactura.txt section 4)', () => {
    expect(qrLink('sandbox', { issuerNif: '89890001K', number: '12345678&G33', issueDate: '01-01-2024', total: '241.4' })).toBe(
      'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4',
    );
  });

  it('points at the production host in live mode and encodes what a URL cannot carry', () => {
    expect(qrLink('live', { issuerNif: 'B00000000', number: 'A/2026 1', issueDate: '25-11-2026', total: '121.00' })).toBe(
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B00000000&numserie=A%2F2026%201&fecha=25-11-2026&importe=121.00',
    );
  });

  it('renders a PNG that prints at 40x40 mm, whole pixels per module, and decodes as a PNG', async () => {
    const uri = await qrPng('https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=1&fecha=01-01-2024&importe=1.00');
    expect(uri.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(uri.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20; square, a multiple of 4 px.
    const width = png.readUInt32BE(16);
    expect(png.readUInt32BE(20)).toBe(width);
    expect(width % 4).toBe(0);
    // pHYs right after IHDR: pixels per metre, unit metre, so width / ppm is the printed size.
    expect(png.subarray(37, 41).toString('ascii')).toBe('pHYs');
    const ppm = png.readUInt32BE(41);
    expect(png.readUInt8(49)).toBe(1);
    expect((width / ppm) * 1000).toBeCloseTo(QR_SIZE_MM, 1);
    // Every chunk's CRC holds (a reader rejects the image otherwise): walk the chunks, inflate the image data.
    const { crc32 } = await import('node:zlib');
    const idat: Buffer[] = [];
    for (let at = 8; at < png.length; ) {
      const length = png.readUInt32BE(at);
      const typeAndData = png.subarray(at + 4, at + 8 + length);
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typeAndData));
      if (typeAndData.subarray(0, 4).toString('ascii') === 'IDAT') idat.push(typeAndData.subarray(4));
      at += 12 + length;
    }
    expect(inflateSync(Buffer.concat(idat)).length).toBeGreaterThan(0);
  });
});
