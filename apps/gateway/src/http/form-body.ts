import type { FastifyInstance } from 'fastify';
import { parseForm } from '../auth/oauth-request';
import { fromFastifyError } from './error-response';

/**
 * `application/x-www-form-urlencoded` bodies, for the routes that take them (the OAuth token
 * endpoint, whose clients send forms as RFC 6749 asks); every other route still answers 415, as
 * for any body that is not JSON. The parameters keep their repeated values (`parseForm`).
 */
export function registerFormParser(fastify: FastifyInstance, bodyLimit: number, accepts: (url: string) => boolean): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (!accepts(request.url)) {
      done(fromFastifyError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: '' }), undefined);
      return;
    }
    done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
  });
}
