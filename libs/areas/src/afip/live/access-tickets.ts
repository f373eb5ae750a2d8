/**
 * AFIP's access tickets, shared by every worker and process (table `afip_access_tickets`, the ticket
 * sealed with SECRETS_KEY): one per certificate and service, as WSAA issues them. A ticket is renewed
 * `renewBeforeMs` before it expires, by one process only: the renewer takes a lease on the row (an
 * autocommitted UPDATE, no transaction held across the call to WSAA), calls WSAA, then stores the ticket.
 * Meanwhile the others keep using the current ticket, or wait for the new one when there is none. WSAA
 * refuses a second ticket while one is valid (`coe.alreadyAuthenticated`), so a failed renewal keeps its
 * lease for `failureBackoffMs` (after alreadyAuthenticated: until near the current ticket's end, at most
 * 5 min) and others see its error instead of asking WSAA again.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { AppError, type SecretBox } from '@einvoice/domain';
import type { ConnectorQuery } from '../../registry/area';
import type { AccessTicket } from './wsaa';

export interface TicketOptions {
  /** Renew this long before expiry (default 30 min of the 12 h). */
  readonly renewBeforeMs: number;
  /** How long a renewer may take before another may try (default 60 s). */
  readonly leaseMs: number;
  /** After a failed renewal, how long nobody asks WSAA again (default 10 s). */
  readonly failureBackoffMs: number;
  /** How long a caller waits for another process's renewal when there is no valid ticket (default 15 s). */
  readonly maxWaitMs: number;
  /** The clock tickets and leases are judged by (tests move it instead of waiting); default Date.now. */
  readonly now?: () => number;
}

export const DEFAULT_TICKET_OPTIONS: TicketOptions = { renewBeforeMs: 30 * 60_000, leaseMs: 60_000, failureBackoffMs: 10_000, maxWaitMs: 15_000 };

/** Keeps a valid ticket this long at least before using it (a call in flight must not outlive it). */
const SAFETY_MS = 5_000;
/** WSAA's refusal while a ticket of this certificate is valid: asking again before it expires is no use. */
const ALREADY_AUTHENTICATED = 'AFIP.WSAA.coe.alreadyAuthenticated';
const MAX_ALREADY_AUTHENTICATED_BACKOFF_MS = 5 * 60_000;
const WAIT_STEP_MS = 100;

type Login = (service: string, certificatePem: string, privateKeyPem: string) => Promise<AccessTicket>;

interface Row {
  readonly ticket: string | null;
  readonly expires_at: Date | null;
  readonly renewing: boolean;
  readonly last_error: string | null;
}

export class AccessTickets {
  /** This process's copy, so most calls read no row. */
  private readonly memory = new Map<string, { readonly ticket: AccessTicket; readonly renewAt: number }>();

  constructor(
    private readonly db: ConnectorQuery,
    private readonly box: SecretBox,
    private readonly login: Login,
    private readonly options: TicketOptions = DEFAULT_TICKET_OPTIONS,
  ) {}

  /** A valid ticket for this certificate and service, from the cache or from WSAA (one caller at a time). */
  async ticketFor(service: string, certificatePem: string, privateKeyPem: string): Promise<AccessTicket> {
    const certificate = fingerprint(certificatePem);
    const memoKey = `${certificate}/${service}`;
    const remembered = this.memory.get(memoKey);
    if (remembered && this.now() < remembered.renewAt) return remembered.ticket;
    const deadline = Date.now() + this.options.maxWaitMs;
    for (;;) {
      const now = this.now();
      const [row] = await this.db<Row>(`SELECT ticket, expires_at, coalesce(renewing_until > $3, false) AS renewing, last_error FROM afip_access_tickets WHERE certificate = $1 AND service = $2`, [certificate, service, new Date(now)]);
      const current = row?.ticket && row.expires_at && row.expires_at.getTime() - now > SAFETY_MS ? (JSON.parse(this.box.open(row.ticket)) as AccessTicket) : undefined;
      const renewAt = current ? Date.parse(current.expiresAt) - this.options.renewBeforeMs : 0;
      if (current && now < renewAt) {
        this.memory.set(memoKey, { ticket: current, renewAt });
        return current;
      }
      if (!row?.renewing && (await this.claim(certificate, service))) return this.renew(certificate, service, memoKey, certificatePem, privateKeyPem, current);
      // Another process renews: the current ticket serves meanwhile; without one, wait for it.
      if (current) return current;
      if (row?.renewing && row.last_error) throw new AppError('unavailable', 'AFIP.WSAA', `No AFIP access ticket: the last request failed: ${row.last_error}`, { retriable: true });
      if (Date.now() > deadline) throw new AppError('unavailable', 'AFIP.WSAA', 'No AFIP access ticket yet: another process is asking WSAA for one.', { retriable: true });
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Forgets a ticket AFIP no longer takes (WSFE's 600), so the next call asks WSAA. */
  async forget(service: string, certificatePem: string): Promise<void> {
    const certificate = fingerprint(certificatePem);
    this.memory.delete(`${certificate}/${service}`);
    await this.db(`UPDATE afip_access_tickets SET ticket = NULL, expires_at = NULL WHERE certificate = $1 AND service = $2`, [certificate, service]);
  }

  /** The lease on renewing this ticket, or false when another process holds it. */
  private async claim(certificate: string, service: string): Promise<boolean> {
    const claimed = await this.db(
      `INSERT INTO afip_access_tickets (certificate, service, renewing_until) VALUES ($1, $2, $3)
       ON CONFLICT (certificate, service) DO UPDATE SET renewing_until = excluded.renewing_until, last_error = NULL
       WHERE afip_access_tickets.renewing_until IS NULL OR afip_access_tickets.renewing_until <= $4
       RETURNING 1`,
      [certificate, service, new Date(this.now() + this.options.leaseMs), new Date(this.now())],
    );
    return claimed.length > 0;
  }

  private async renew(certificate: string, service: string, memoKey: string, certificatePem: string, privateKeyPem: string, current: AccessTicket | undefined): Promise<AccessTicket> {
    let ticket: AccessTicket;
    try {
      ticket = await this.login(service, certificatePem, privateKeyPem);
    } catch (error) {
      // Nobody asks WSAA again for a while; while the current ticket is valid, WSAA will refuse again until near its end.
      const backoff = (error as AppError).code === ALREADY_AUTHENTICATED && current
        ? Math.max(this.options.failureBackoffMs, Math.min(MAX_ALREADY_AUTHENTICATED_BACKOFF_MS, Date.parse(current.expiresAt) - SAFETY_MS - this.now()))
        : this.options.failureBackoffMs;
      await this.db(`UPDATE afip_access_tickets SET renewing_until = $3, last_error = $4 WHERE certificate = $1 AND service = $2`, [certificate, service, new Date(this.now() + backoff), (error as Error).message.slice(0, 500)]);
      // A renewal that failed while the old ticket is still valid: keep using it.
      if (current) return current;
      throw error;
    }
    await this.db(`UPDATE afip_access_tickets SET ticket = $3, expires_at = $4, renewing_until = NULL, last_error = NULL WHERE certificate = $1 AND service = $2`, [certificate, service, this.box.seal(JSON.stringify(ticket)), ticket.expiresAt]);
    this.memory.set(memoKey, { ticket, renewAt: Date.parse(ticket.expiresAt) - this.options.renewBeforeMs });
    return ticket;
  }
}

/** A certificate's SHA-256 fingerprint: the key of its tickets (never the certificate itself). */
function fingerprint(certificatePem: string): string {
  return createHash('sha256').update(new X509Certificate(certificatePem).raw).digest('hex');
}
