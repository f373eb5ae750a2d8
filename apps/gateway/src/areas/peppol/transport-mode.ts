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

/**
 * Malaysia (seed 000: a required header; it shows only `peppol`): `peppol` = MyInvois, then the
 * PINT MY copy over Peppol once MyInvois says Valid; `myinvois` (ours, for buyers not on Peppol) =
 * MyInvois only. Absent or anything else is a 400 before work starts.
 */
export type MyInvoisTransportMode = 'peppol' | 'myinvois';

export function myInvoisTransportMode(value: string | undefined): MyInvoisTransportMode {
  if (value === 'peppol' || value === 'myinvois') return value;
  const missing = value === undefined || value === '';
  throw new AppError('validation', 'REQUEST.INVALID', missing ? 'The transport_mode header is required.' : `transport_mode "${value}" is not supported.`, {
    issues: [issue('headers.transport_mode', missing ? 'FIELD.REQUIRED' : 'FIELD.INVALID_VALUE', 'transport_mode must be "peppol" (MyInvois, then Peppol) or "myinvois" (MyInvois only).')],
  });
}
