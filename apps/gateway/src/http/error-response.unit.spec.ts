import { AppError, WrongExpectedVersionError, issue } from '@einvoice/domain';
import { fromFastifyError, toHttpError } from './error-response';

describe('the one error shape', () => {
  it.each([
    ['validation', 400, 'bad_request'],
    ['unauthenticated', 401, 'unauthorized'],
    ['forbidden', 403, 'forbidden'],
    ['not_found', 404, 'not_found'],
    ['conflict', 409, 'conflict'],
    ['too_large', 413, 'payload_too_large'],
    ['unsupported_media_type', 415, 'unsupported_media_type'],
    ['rate_limited', 429, 'too_many_requests'],
  ] as const)('maps %s to %i %s', (kind, statusCode, status) => {
    const mapped = toHttpError(new AppError(kind, 'X.Y', 'message'), 'req-1');
    expect(mapped).toEqual({ statusCode, body: { status, message: 'message', errors: [{ path: '', code: 'X.Y', message: 'message', severity: 'error' }], request_id: 'req-1' } });
  });

  it('keeps field issues with their paths', () => {
    const error = new AppError('validation', 'REQUEST.INVALID', 'bad', { issues: [issue('InvoiceLines[2].Description', 'FIELD.TOO_LONG', 'too long')] });
    expect(toHttpError(error, 'req-1').body.errors).toEqual([{ path: 'InvoiceLines[2].Description', code: 'FIELD.TOO_LONG', message: 'too long', severity: 'error' }]);
  });

  it('turns a concurrency conflict into a 409 the client can retry, never a 500', () => {
    expect(toHttpError(new WrongExpectedVersionError('document-1', 0, 1), 'req-1').statusCode).toBe(409);
  });

  it("maps Fastify's own errors: body too large 413, media type 415", () => {
    expect(fromFastifyError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', message: '' })).toMatchObject({ kind: 'too_large', code: 'REQUEST.TOO_LARGE' });
    expect(fromFastifyError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: '' })).toMatchObject({ kind: 'unsupported_media_type' });
    expect(fromFastifyError({ code: 'FST_ERR_BAD_URL', message: '' })).toMatchObject({ kind: 'validation', code: 'REQUEST.BAD_URL' });
  });
});
