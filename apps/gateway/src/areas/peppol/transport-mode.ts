import { AppError, issue } from '@einvoice/domain';

/**
 * BE/DE/SG (seed 002 lists the header with the sample `peppol`, and these areas only deliver over
 * Peppol): absent means `peppol`; anything else is refused before work starts.
 */
export function assertTransportMode(value: string | undefined): void {
  if (value === undefined || value === 'peppol') return;
  throw new AppError('validation', 'REQUEST.INVALID', `transport_mode "${value}" is not supported; use "peppol".`, {
    issues: [issue('headers.transport_mode', 'FIELD.INVALID_VALUE', 'transport_mode must be "peppol".')],
  });
}
