import { carriesEngineSecret } from './engine-secret';
import { readInboundMessage } from './inbound-message';
import { loadPeppolInboundSettings } from './inbound-settings';

const message = {
  messageId: 'm-1@their-ap',
  senderParticipantId: 'iso6523-actorid-upis::9925:be0999999980',
  receiverParticipantId: 'iso6523-actorid-upis::9925:be0123456749',
  documentTypeId: 'busdox-docid-qns::x',
  processId: 'cenbii-procid-ubl::y',
  instanceIdentifier: 'i-1',
  payload: '<Invoice/>',
};

describe('#46 the AS4 engine\'s inbound callback', () => {
  it('is served only with the engine\'s secret, and to no one when none is set', () => {
    expect(carriesEngineSecret('s3cret', 's3cret')).toBe(true);
    expect(carriesEngineSecret('s3cre', 's3cret')).toBe(false);
    expect(carriesEngineSecret(undefined, 's3cret')).toBe(false);
    expect(carriesEngineSecret(['s3cret', 's3cret'], 's3cret')).toBe(false);
    expect(carriesEngineSecret('', undefined)).toBe(false);
  });

  it('reads the contract\'s fields, and says which are missing or not strings', () => {
    expect(readInboundMessage({ ...message, mlsTo: '0242:000222', unknown: 1 })).toEqual({ message: { ...message, mlsTo: '0242:000222' } });
    expect(readInboundMessage({ ...message, payload: undefined, messageId: '' })).toEqual({ problem: 'Missing or not a string: messageId, payload.' });
    expect(readInboundMessage({ ...message, senderCertificate: 42 })).toEqual({ problem: 'Not a string: senderCertificate.' });
    expect(readInboundMessage([message])).toEqual({ problem: 'The body is not a JSON object.' });
  });

  it('with AS4_ENGINE_SECRET set, refuses to start without this access point\'s service provider id and country', () => {
    expect(loadPeppolInboundSettings({})).toEqual({ engineSecret: undefined, serviceProviderId: undefined, serviceProviderCountry: undefined });
    expect(() => loadPeppolInboundSettings({ AS4_ENGINE_SECRET: 'x', PEPPOL_SERVICE_PROVIDER_COUNTRY: 'BE' })).toThrow('PEPPOL_SERVICE_PROVIDER_ID must be');
    expect(() => loadPeppolInboundSettings({ AS4_ENGINE_SECRET: 'x', PEPPOL_SERVICE_PROVIDER_ID: '0242:000111', PEPPOL_SERVICE_PROVIDER_COUNTRY: 'Belgium' })).toThrow('PEPPOL_SERVICE_PROVIDER_COUNTRY must be');
    expect(loadPeppolInboundSettings({ AS4_ENGINE_SECRET: 'x', PEPPOL_SERVICE_PROVIDER_ID: '0242:000111', PEPPOL_SERVICE_PROVIDER_COUNTRY: 'be' }))
      .toEqual({ engineSecret: 'x', serviceProviderId: '0242:000111', serviceProviderCountry: 'BE' });
  });
});
