/**
 * Reads what the development capture mailbox (capture-mailbox.ts) wrote: one JSON line per mail.
 * Its own module, without the SMTP server, so the CLI's `mail list` loads no development package.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface CapturedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The first http(s) link of the text, if any. */
  readonly link: string | null;
  readonly sent_at: string;
}

/** Every mail captured so far, oldest first. */
export function capturedMails(file: string): CapturedMail[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CapturedMail);
}
