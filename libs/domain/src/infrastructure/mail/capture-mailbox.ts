/**
 * A local mailbox that receives real SMTP on 127.0.0.1 and keeps each mail as one JSON line
 * `{to, subject, text, link, sent_at}` in a file: what `npm start` runs when no SMTP_URL is set, so
 * mails the gateway sends (access codes) can be read with `npm run --silent cli -- mail list`, and
 * what the tests read. Not a mail server: it accepts any recipient and delivers nowhere.
 * Development only (smtp-server and mailparser are devDependencies): no app's entry point imports it;
 * `@einvoice/domain/mail-capture` names it for the capture process and the tests.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { CapturedMail } from './captured-mails';

export type { CapturedMail };

export interface CaptureMailbox {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`: what SMTP_URL is set to for the apps. */
  readonly url: string;
  stop(): Promise<void>;
}

export async function startCaptureMailbox(options: { readonly port: number; readonly file: string; readonly host?: string }): Promise<CaptureMailbox> {
  mkdirSync(path.dirname(options.file), { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const text = mail.text ?? '';
          const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
          const captured: CapturedMail = { to, subject: mail.subject ?? '', text, link: /https?:\/\/\S+/.exec(text)?.[0] ?? null, sent_at: (mail.date ?? new Date()).toISOString() };
          appendFileSync(options.file, `${JSON.stringify(captured)}\n`);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { port, url: `smtp://${host}:${port}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
