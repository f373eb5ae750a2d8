import { rejection } from '../../../../test/support/errors';
import { headerForms, seedHeader } from './seed-headers';

describe('#44 headers by their seed names (underscored ones also hyphenated)', () => {
  it('an underscored name answers to its hyphenated form too; a hyphenated one to itself only', () => {
    expect(headerForms('supplier_uuid')).toEqual(['supplier_uuid', 'supplier-uuid']);
    expect(headerForms('transport_mode')).toEqual(['transport_mode', 'transport-mode']);
    expect(headerForms('participant-id')).toEqual(['participant-id']);
  });

  it('reads either form; an empty value is not sent', () => {
    expect(seedHeader({ supplier_uuid: 'a' }, 'supplier_uuid')).toBe('a');
    expect(seedHeader({ 'supplier-uuid': 'a' }, 'supplier_uuid')).toBe('a');
    expect(seedHeader({ supplier_uuid: '', 'supplier-uuid': 'a' }, 'supplier_uuid')).toBe('a');
    expect(seedHeader({ 'transport-mode': ['peppol', 'x'] }, 'transport_mode')).toBe('peppol');
    expect(seedHeader({}, 'supplier_uuid')).toBeUndefined();
    // participant_id is not a seed spelling: participant-id does not answer to it.
    expect(seedHeader({ participant_id: 'a' }, 'participant-id')).toBeUndefined();
  });

  it('both forms with one value are one header; with different values a 400 naming both', async () => {
    expect(seedHeader({ supplier_uuid: 'a', 'supplier-uuid': 'a' }, 'supplier_uuid')).toBe('a');
    const error = await rejection(Promise.resolve().then(() => seedHeader({ supplier_uuid: 'a', 'supplier-uuid': 'b' }, 'supplier_uuid')));
    expect(error.kind).toBe('validation');
    expect(error.message).toContain('supplier_uuid');
    expect(error.message).toContain('supplier-uuid');
    expect(error.issues.map((i) => [i.path, i.code])).toEqual([['headers.supplier_uuid', 'HEADER.CONFLICT'], ['headers.supplier-uuid', 'HEADER.CONFLICT']]);
  });
});
