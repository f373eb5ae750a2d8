import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { AppError } from '@einvoice/domain';

/**
 * Sends mail over SMTP to SMTP_URL (`smtp://host:port`, `smtps://user:pass@host`), with nodemailer.
 * `npm start` sets it to its local capture mailbox when none is given (README "Mail"); without one
 * the gateway sends nothing and says so (503).
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly transport?: Transporter;
  private readonly from = process.env.MAIL_FROM ?? 'einvoice gateway <no-reply@einvoice.local>';

  constructor() {
    if (process.env.SMTP_URL) this.transport = nodemailer.createTransport(process.env.SMTP_URL);
  }

  async send(mail: { readonly to: string; readonly subject: string; readonly text: string }): Promise<void> {
    if (!this.transport) throw new AppError('unavailable', 'MAIL.NOT_CONFIGURED', 'This gateway has no SMTP_URL: it sends no mail.', { retriable: false });
    try {
      await this.transport.sendMail({ from: this.from, ...mail });
    } catch (error) {
      throw new AppError('unavailable', 'MAIL.SEND_FAILED', `The mail could not be sent: ${(error as Error).message}`, { retriable: true });
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
