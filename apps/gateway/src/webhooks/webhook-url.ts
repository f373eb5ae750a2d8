import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { URL_NOT_ALLOWED, type UrlPolicy, checkWebhookUrl, isAddressAllowed, issue, validationError } from '@einvoice/domain';

/**
 * The URL rule at registration (README "Webhooks", URL rule), shared by the seeds' supplier subscriptions and the
 * account endpoints (`/v1/webhooks`): the URL's form and literal address now, and a host name's addresses as it
 * resolves now. Host names are resolved and checked again at every send (send.ts), so this is the early refusal.
 */
export async function assertWebhookUrlAllowed(url: string, policy: UrlPolicy, at = 'url'): Promise<void> {
  const issues = checkWebhookUrl(url, policy, at);
  if (issues.length > 0) throw validationError(issues, 'The webhook URL is not allowed.');
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return;
  // A name that does not resolve yet is accepted; one that resolves to a refused address is not.
  const addresses = await lookup(host, { all: true }).catch(() => []);
  if (addresses.some((a) => !isAddressAllowed(a.address, policy))) {
    throw validationError([issue(at, URL_NOT_ALLOWED, `${at} resolves to a private, link-local or loopback address`)], 'The webhook URL is not allowed.');
  }
}
