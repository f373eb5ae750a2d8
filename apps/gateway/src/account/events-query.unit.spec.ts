import { encodeFeedCursor } from '@einvoice/domain/infrastructure';
import { DEFAULT_EVENTS_LIMIT, eventsQuery } from './events-query';
import { eventsPageSql } from './events.service';

const issuesOf = (query: Record<string, unknown>) => {
  try {
    eventsQuery(query);
    return [];
  } catch (error) {
    return (error as { issues: Array<{ path: string; code: string }> }).issues.map((i) => `${i.path} ${i.code}`).sort();
  }
};

describe('GET /v1/events query (#48)', () => {
  it('takes nothing: the oldest events kept, 100 of them', () => {
    expect(eventsQuery({})).toEqual({ after: undefined, cursor: undefined, types: undefined, areas: undefined, supplierId: undefined, limit: DEFAULT_EVENTS_LIMIT });
  });

  it('reads a cursor, lists of types and areas (trimmed, lower case, once each), a supplier and a limit', () => {
    const cursor = encodeFeedCursor({ xid: '48213', seq: '1187' });
    expect(eventsQuery({ after: cursor, type: 'document.reported, document.report_failed,document.reported', area: 'PL,jo', supplier_id: '9E8D7C6B-5A4F-4E3D-8C2B-1A0F9E8D7C6B', limit: '500' })).toEqual({
      after: { xid: '48213', seq: '1187' },
      cursor,
      types: ['document.reported', 'document.report_failed'],
      areas: ['pl', 'jo'],
      supplierId: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
      limit: 500,
    });
  });

  it('refuses every bad parameter in one 400', () => {
    expect(issuesOf({ after: 'bm9wZQ', type: 'document.paid', area: 'be,xx', supplier_id: '42', limit: '0', status: 'x' })).toEqual([
      'after FIELD.INVALID_VALUE', 'area FIELD.INVALID_VALUE', 'limit FIELD.INVALID_VALUE', 'status FIELD.INVALID_VALUE', 'supplier_id FIELD.INVALID_FORMAT', 'type FIELD.INVALID_VALUE',
    ]);
    expect(issuesOf({ limit: '501' })).toEqual(['limit FIELD.INVALID_VALUE']);
    expect(issuesOf({ limit: '1.5' })).toEqual(['limit FIELD.INVALID_VALUE']);
    expect(issuesOf({ type: ['document.accepted', 'document.reported'] })).toEqual(['type FIELD.INVALID_TYPE']);
    expect(issuesOf({ after: '' })).toEqual(['after FIELD.INVALID_TYPE']);
  });

  it('the page\'s query: the tenant\'s index in order, the filters on what it looked at, the rows of the matches only', () => {
    const { sql, parameters } = eventsPageSql('t', eventsQuery({ type: 'document.reported', area: 'pl', supplier_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b', limit: '10' }), 5000);
    expect(parameters).toEqual(['t', null, null, 5000, 10, ['document.reported'], ['pl'], '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b']);
    expect(sql).toMatch(/WHERE e\.tenant_id = \$1 AND .*pg_snapshot_xmin/s);
    expect(sql).toContain('s.type = ANY($6::text[]) AND s.area = ANY($7::text[]) AND s.supplier_id = $8::uuid');
    expect(eventsPageSql('t', eventsQuery({}), 100).sql).not.toContain('WHERE s.');
  });
});
