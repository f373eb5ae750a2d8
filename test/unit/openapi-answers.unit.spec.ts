import { answerChecker } from '../support/openapi-answers';

/** The checker the generated client's e2e and the fuzz suite hold answers to: it must see a wrong answer. */
describe('answerChecker', () => {
  const document = {
    openapi: '3.1.0',
    paths: {
      '/things/{id}': {
        get: {
          responses: {
            200: { description: 'a thing', content: { 'application/json': { schema: { type: 'object', required: ['status', 'data'], properties: { status: { type: 'string', example: 'success' }, data: { $ref: '#/components/schemas/Thing' } } } } } },
            404: { description: 'no such thing' },
          },
        },
      },
    },
    components: { schemas: { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string', example: 't1' }, count: { type: ['integer', 'null'] } } } } },
  };
  const check = answerChecker(document);

  it('passes an answer the document describes, through a components reference', () => {
    expect(check('GET', '/things/{id}', 200, { status: 'success', data: { id: 't1', count: null } })).toEqual([]);
  });

  it('names what differs from the documented schema', () => {
    expect(check('GET', '/things/{id}', 200, { status: 'success', data: { count: 'many' } })).toEqual([
      expect.stringContaining('/data must have required property \'id\''),
      expect.stringContaining('/data/count must be integer,null'),
    ]);
  });

  it('has nothing to say where the document gives no JSON schema', () => {
    expect(check('GET', '/things/{id}', 404, { anything: true })).toEqual([]);
    expect(check('POST', '/elsewhere', 200, {})).toEqual([]);
  });
});
