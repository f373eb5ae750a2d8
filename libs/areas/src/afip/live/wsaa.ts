/**
 * WSAA, AFIP's authentication service (notes section 2): a login ticket request (TRA) for one service,
 * signed as CMS SignedData with the content embedded (node-forge), base64, sent as `loginCms(in0)`; the
 * answer is an access ticket (token and sign) valid 12 h for that certificate and service. Times are
 * written `yyyy-mm-ddThh:mm:ss-00:00` (AFIP refuses bare ISO strings).
 */
import { createPrivateKey } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import forge from 'node-forge';
import { el } from '../../shared/xml';
import { rootNamed, textAt } from '../../shared/xml-read';
import { envelope, soapCall, unavailable } from './soap';

export const WSAA_NAMESPACE = 'http://wsaa.view.sua.dvadac.desein.afip.gov';

export interface AccessTicket {
  readonly token: string;
  readonly sign: string;
  /** ISO 8601, as WSAA states it. */
  readonly expiresAt: string;
}

const wsaaTime = (at: Date) => `${at.toISOString().slice(0, 19)}-00:00`;

/** The TRA: valid from ten minutes ago to ten minutes ahead, so clocks a little apart still agree. */
export function loginTicketRequest(service: string, now = new Date()): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header>' +
    `<uniqueId>${Math.floor(now.getTime() / 1000)}</uniqueId>` +
    `<generationTime>${wsaaTime(new Date(now.getTime() - 600_000))}</generationTime>` +
    `<expirationTime>${wsaaTime(new Date(now.getTime() + 600_000))}</expirationTime>` +
    `</header><service>${service}</service></loginTicketRequest>`
  );
}

/** CMS SignedData over `content` (embedded), SHA-256 with RSA, the signer's certificate included; base64 DER. */
export function signCms(content: string, certificatePem: string, privateKeyPem: string): string {
  const certificate = forge.pki.certificateFromPem(certificatePem);
  // forge reads PKCS#1 RSA keys; the supplier may give PKCS#8.
  const key = forge.pki.privateKeyFromPem(createPrivateKey(privateKeyPem).export({ type: 'pkcs1', format: 'pem' }).toString());
  const signed = forge.pkcs7.createSignedData();
  signed.content = forge.util.createBuffer(content, 'utf8');
  signed.addCertificate(certificate);
  signed.addSigner({
    key,
    certificate,
    digestAlgorithm: forge.pki.oids.sha256,
    authenticatedAttributes: [{ type: forge.pki.oids.contentType, value: forge.pki.oids.data }, { type: forge.pki.oids.messageDigest }, { type: forge.pki.oids.signingTime, value: new Date() as unknown as string }],
  });
  signed.sign();
  return forge.util.encode64(forge.asn1.toDer(signed.toAsn1()).getBytes());
}

/** WSAA faults that mean AFIP will not take this certificate as it is: an operator must act (not retried). */
const CERTIFICATE_FAULTS = /^(cms\.|ns1:cms\.|coe\.notAuthorized|xml\.)/;

export class Wsaa {
  constructor(private readonly options: { readonly url: string; readonly timeoutMs: number }) {}

  /** A new access ticket for `service`. @throws AppError: WSAA's fault (`AFIP.WSAA.<faultcode>`) or AFIP unavailable */
  async login(service: string, certificatePem: string, privateKeyPem: string): Promise<AccessTicket> {
    let cms: string;
    try {
      cms = signCms(loginTicketRequest(service), certificatePem, privateKeyPem);
    } catch (error) {
      throw new AppError('validation', 'AFIP.CERTIFICATE', `The AFIP certificate or key cannot sign a login: ${(error as Error).message}`, { retriable: false });
    }
    const answer = await soapCall(this.options.url, '', envelope(el('wsaa:loginCms', { 'xmlns:wsaa': WSAA_NAMESPACE }, el('wsaa:in0', {}, cms))), this.options.timeoutMs);
    if ('fault' in answer) {
      const { faultcode, faultstring } = answer.fault;
      const retriable = !CERTIFICATE_FAULTS.test(faultcode);
      throw new AppError(retriable ? 'unavailable' : 'validation', `AFIP.WSAA.${faultcode}`, `WSAA refused the login: ${faultcode}: ${faultstring}`, { retriable });
    }
    // The access ticket comes as a document nested as text.
    const ticket = rootNamed(textAt(answer.body, 'loginCmsResponse', 'loginCmsReturn') ?? '', 'loginTicketResponse');
    const token = textAt(ticket, 'credentials', 'token');
    const sign = textAt(ticket, 'credentials', 'sign');
    const expiration = textAt(ticket, 'header', 'expirationTime') ?? '';
    if (!token || !sign || Number.isNaN(Date.parse(expiration))) throw unavailable('WSAA answered without a complete access ticket.');
    return { token, sign, expiresAt: new Date(Date.parse(expiration)).toISOString() };
  }
}
