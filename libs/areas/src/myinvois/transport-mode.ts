import { AppError, issue } from '@einvoice/domain';

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
