import { OAuthError, clientCredentialsRequest, parseForm } from './oauth-request';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const refusal = (body: unknown, authorization?: string) => {
  try {
    clientCredentialsRequest(body, authorization);
  } catch (error) {
    if (error instanceof OAuthError) return { status: error.statusCode, ...error.body, basic: error.basic };
    throw error;
  }
  throw new Error('accepted');
};

describe('OAuth 2.0 client credentials token requests (RFC 6749)', () => {
  it('reads the credentials from a JSON body, a form and HTTP Basic', () => {
    expect(clientCredentialsRequest({ grant_type: 'client_credentials', client_id: 'c1', client_secret: 's1' }, undefined)).toEqual({ clientId: 'c1', clientSecret: 's1', basic: false });
    expect(clientCredentialsRequest(parseForm('grant_type=client_credentials&client_id=c1&client_secret=s%2B1'), undefined)).toEqual({ clientId: 'c1', clientSecret: 's+1', basic: false });
    expect(clientCredentialsRequest(parseForm('grant_type=client_credentials'), basic('c:1', 's 1'))).toEqual({ clientId: 'c:1', clientSecret: 's 1', basic: true });
  });

  it('answers invalid_request for a missing or repeated parameter, unsupported_grant_type for another grant', () => {
    expect(refusal({ client_id: 'c', client_secret: 's' })).toMatchObject({ status: 400, error: 'invalid_request' });
    expect(refusal(parseForm('grant_type=client_credentials&client_id=c&client_id=d&client_secret=s'))).toMatchObject({ status: 400, error: 'invalid_request', error_description: 'client_id is sent more than once.' });
    expect(refusal({ grant_type: 'client_credentials', client_id: 'c' })).toMatchObject({ status: 400, error: 'invalid_request' });
    expect(refusal({ grant_type: 'client_credentials', client_id: 5, client_secret: 's' })).toMatchObject({ status: 400, error: 'invalid_request' });
    expect(refusal({ grant_type: 'password', client_id: 'c', client_secret: 's' })).toMatchObject({ status: 400, error: 'unsupported_grant_type' });
    expect(refusal([])).toMatchObject({ status: 400, error: 'invalid_request' });
  });

  it('refuses two authentication methods at once, and a Basic header that is not one (401 with Basic)', () => {
    expect(refusal({ grant_type: 'client_credentials', client_secret: 's' }, basic('c', 's'))).toMatchObject({ status: 400, error: 'invalid_request', basic: true });
    expect(refusal({ grant_type: 'client_credentials' }, 'Basic bm9jb2xvbg==')).toMatchObject({ status: 401, error: 'invalid_client', basic: true });
  });

  it('treats an empty parameter as absent (RFC 6749 §3.1)', () => {
    expect(refusal(parseForm('grant_type=&client_id=c&client_secret=s'))).toMatchObject({ error: 'invalid_request', error_description: 'grant_type is required: client_credentials.' });
  });
});
