// The headers that make "the same request" come from the registry (each area's supplier header), in an
// order that keeps hashes stored before (#45): a retry within the idempotency window after an upgrade is
// still the same request.
import { MEANINGFUL_HEADERS } from './idempotency';

describe('the headers of "the same request" (#45)', () => {
  it('are the seed headers, then each area supplier header, in the order of the hashes stored before', () => {
    expect(MEANINGFUL_HEADERS).toEqual(['supplier_uuid', 'transport_mode', 'participant-id', 'cuit']);
  });
});
