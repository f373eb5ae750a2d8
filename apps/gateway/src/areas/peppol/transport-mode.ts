import { AppError, issue } from '@einvoice/domain';

/** The seed shows only `peppol`; absent means `peppol`, anything else is refused before work starts. */
export function assertTransportMode(value: string | undefined): void {
  if (value === undefined || value === 'peppol') return;
  throw new AppError('validation', 'REQUEST.INVALID', `transport_mode "${value}" is not supported; use "peppol".`, {
    issues: [issue('headers.transport_mode', 'FIELD.INVALID_VALUE', 'transport_mode must be "peppol".')],
  });
}
