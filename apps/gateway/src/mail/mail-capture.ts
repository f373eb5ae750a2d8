// The local capture mailbox `npm start` runs when no SMTP_URL is given (libs/domain
// infrastructure/mail/capture-mailbox.ts): MAIL_CAPTURE_PORT (2525), MAIL_CAPTURE_FILE (.run/mail/captured.jsonl).
import path from 'node:path';
import { startCaptureMailbox } from '@einvoice/domain/mail-capture';

const port = Number(process.env.MAIL_CAPTURE_PORT ?? 2525);
const file = process.env.MAIL_CAPTURE_FILE ?? path.resolve('.run', 'mail', 'captured.jsonl');

void startCaptureMailbox({ port, file }).then((mailbox) => {
  process.stdout.write(`${JSON.stringify({ level: 'info', app: 'mail-capture', message: 'capture mailbox listening', url: mailbox.url, file })}\n`);
  const stop = () => void mailbox.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
});
