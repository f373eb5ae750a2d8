/**
 * The live WSFEv1 for a connector: each taxpayer's calls signed in with its own certificate (given at
 * onboarding, sealed) or, for taxpayers who delegated to the service at AFIP, the service's
 * (AFIP_CERTIFICATE); the access ticket shared across processes (access-tickets.ts).
 */
import { AppError, type SecretBox } from '@einvoice/domain';
import type { ConnectorQuery } from '../../registry/area';
import type { AfipSettings } from '../settings';
import type { Taxpayer } from '../wsfe';
import { AccessTickets } from './access-tickets';
import { LiveWsfe, type WsfeAuth } from './live-wsfe';
import { Wsaa } from './wsaa';

/** WSAA's name for WSFEv1. */
export const WSFE_SERVICE = 'wsfe';

export function liveWsfe(
  settings: AfipSettings,
  deps: { readonly query: ConnectorQuery; readonly box: SecretBox; readonly ownCertificate: (supplierId: string) => Promise<{ cert: string; key: string } | undefined> },
): LiveWsfe {
  const wsaa = new Wsaa({ url: settings.wsaaUrl, timeoutMs: settings.timeoutMs });
  const tickets = new AccessTickets(deps.query, deps.box, (service, cert, key) => wsaa.login(service, cert, key), settings.tickets);
  const auth = async ({ supplierId }: Taxpayer): Promise<WsfeAuth> => {
    const certificate = (await deps.ownCertificate(supplierId)) ?? settings.certificate;
    if (!certificate) {
      throw new AppError('validation', 'AFIP.NO_CERTIFICATE', 'No AFIP certificate for this taxpayer: it gave none at onboarding (certificate_pem) and the service has none (AFIP_CERTIFICATE).', { retriable: false });
    }
    const ticket = await tickets.ticketFor(WSFE_SERVICE, certificate.cert, certificate.key);
    return { Token: ticket.token, Sign: ticket.sign, forget: () => tickets.forget(WSFE_SERVICE, certificate.cert) };
  };
  return new LiveWsfe({ url: settings.wsfeUrl, timeoutMs: settings.timeoutMs, auth });
}
