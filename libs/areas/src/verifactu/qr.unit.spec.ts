import { QR_WIDTH_PX, qrLink, qrPng } from './qr';

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

  it('renders a PNG of 40 mm at 300 dpi', async () => {
    const uri = await qrPng('https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=1&fecha=01-01-2024&importe=1.00');
    expect(uri.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(uri.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    expect(png.readUInt32BE(16)).toBe(QR_WIDTH_PX);
    expect(png.readUInt32BE(20)).toBe(QR_WIDTH_PX);
  });
});
