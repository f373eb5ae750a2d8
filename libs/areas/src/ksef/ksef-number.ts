/**
 * KSeF numbers as KSeF assigns them (national-systems-detail.md section 3, "KSeF number"): 35
 * characters, `{seller NIP}-{acceptance date YYYYMMDD}-{12 hex}-{CRC-8}`, the CRC-8 (polynomial 0x07,
 * initial 0x00) over the first 32 characters, in upper-case hex.
 */
import { randomBytes } from 'node:crypto';

export function crc8(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** A new KSeF number for an invoice of `nip` accepted on `date` (`YYYY-MM-DD`). */
export function newKsefNumber(nip: string, date: string, random: Buffer = randomBytes(6)): string {
  const head = `${nip}-${date.replace(/-/g, '')}-${random.toString('hex').toUpperCase()}`;
  return `${head}-${crc8(head).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** True for a KSeF number whose check characters match. */
export function isKsefNumber(value: string): boolean {
  return /^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/.test(value) && crc8(value.slice(0, 32)).toString(16).toUpperCase().padStart(2, '0') === value.slice(33);
}
