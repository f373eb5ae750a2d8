import { isParticipantId, parseParticipantId } from './participant-id';
import { parseCreateParticipant, parseKycCompletion } from './schema';

describe('#3 participant id validation', () => {
  it('splits a valid id and canonicalises scheme and value to lower case', () => {
    expect(parseParticipantId('ISO6523-ACTORID-UPIS::9925:BE0123456749', 'pid')).toEqual({
      scheme: 'iso6523-actorid-upis', code: '9925', value: 'be0123456749', id: 'iso6523-actorid-upis::9925:be0123456749',
    });
  });

  it.each([
    ['', 'FIELD.REQUIRED'],
    ['0208:0123456749', 'PARTICIPANT.INVALID_ID'],
    ['iso6523-actorid-upis:0208:0123456749', 'PARTICIPANT.INVALID_ID'],
    ['busdox-actorid-upis::0208:0123456749', 'PARTICIPANT.INVALID_ID'],
    ['iso6523-actorid-upis::0208:', 'PARTICIPANT.INVALID_ID'],
    ['iso6523-actorid-upis::0208:01 23', 'PARTICIPANT.INVALID_ID'],
    ['iso6523-actorid-upis::1234:0123456749', 'PARTICIPANT.UNKNOWN_SCHEME'],
    ['iso6523-actorid-upis::ABCD:0123456749', 'PARTICIPANT.UNKNOWN_SCHEME'],
    [`iso6523-actorid-upis::0088:${'1'.repeat(46)}`, 'FIELD.TOO_LONG'],
  ])('refuses %j with %s at the given path', (raw, code) => {
    const parsed = parseParticipantId(raw, 'pid[1]');
    expect(isParticipantId(parsed)).toBe(false);
    expect(parsed).toMatchObject({ path: 'pid[1]', code });
  });

  it.each(['0208', '9925', '9930', '0204', '0195', '0088', '9959'])('accepts the Peppol scheme code %s', (code) => {
    expect(isParticipantId(parseParticipantId(`iso6523-actorid-upis::${code}:abc`, 'pid'))).toBe(true);
  });
});

const entity = { names: { name: [{ language: 'nl', name: 'Brussels Widgets NV' }] }, countryCode: 'BE' };

describe('#3 create-participant body', () => {
  it('takes the participant id from the first iso6523 additional identifier', () => {
    const request = parseCreateParticipant({
      businessEntity: [{ ...entity, additionalIdentifiers: { additionalIdentifier: [
        { identifierCode: 'VAT', identifierValue: 'BE0123456749', scheme: 'other' },
        { identifierCode: '0208', identifierValue: '0123456749', scheme: 'iso6523-actorid-upis' },
      ] } }],
    });
    expect(request.participantId.id).toBe('iso6523-actorid-upis::0208:0123456749');
  });

  it('prefers participantIdentifier when given', () => {
    const request = parseCreateParticipant({ participantIdentifier: 'iso6523-actorid-upis::9925:BE0123456749', businessEntity: [entity] });
    expect(request.participantId.id).toBe('iso6523-actorid-upis::9925:be0123456749');
  });

  it('names every broken field rule of the seed in one answer', () => {
    expect(() => parseCreateParticipant({
      participantIdentifier: 'iso6523-actorid-upis::0208:0123456749',
      businessEntity: [{
        countryCode: 'Belgium',
        names: { name: [{ name: 'x' }] },
        additionalIdentifiers: { additionalIdentifier: [{ identifierCode: 'x'.repeat(51), identifierValue: 'y'.repeat(101) }] },
        contacts: { contact: [{ email: `${'e'.repeat(100)}@x`, name: 'n'.repeat(51), phoneNumber: '1'.repeat(21) }] },
      }],
    })).toThrow(expect.objectContaining({
      issues: expect.arrayContaining([
        expect.objectContaining({ path: 'businessEntity[0].countryCode', code: 'FIELD.INVALID_FORMAT' }),
        expect.objectContaining({ path: 'businessEntity[0].names.name[0].language', code: 'FIELD.REQUIRED' }),
        expect.objectContaining({ path: 'businessEntity[0].additionalIdentifiers.additionalIdentifier[0].identifierCode', code: 'FIELD.TOO_LONG' }),
        expect.objectContaining({ path: 'businessEntity[0].additionalIdentifiers.additionalIdentifier[0].identifierValue', code: 'FIELD.TOO_LONG' }),
        expect.objectContaining({ path: 'businessEntity[0].contacts.contact[0].email', code: 'FIELD.TOO_LONG' }),
        expect.objectContaining({ path: 'businessEntity[0].contacts.contact[0].name', code: 'FIELD.TOO_LONG' }),
        expect.objectContaining({ path: 'businessEntity[0].contacts.contact[0].phoneNumber', code: 'FIELD.TOO_LONG' }),
      ]),
    }));
  });

  it('requires a participant id source', () => {
    expect(() => parseCreateParticipant({ businessEntity: [entity] }))
      .toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: 'participantIdentifier', code: 'FIELD.REQUIRED' })] }));
  });

  it('requires businessEntity with at least one element', () => {
    expect(() => parseCreateParticipant({ businessEntity: [] }))
      .toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: 'businessEntity', code: 'FIELD.TOO_FEW' })] }));
  });
});

describe('#3 KYC document', () => {
  const pdf = Buffer.from('%PDF-1.7\n%signed\n').toString('base64');

  it('accepts a PDF by its magic bytes', () => {
    expect(parseKycCompletion({ fileName: 'kyc.pdf', content: pdf }, 1000)).toMatchObject({ fileName: 'kyc.pdf', method: 'PDF_AUTHORIZATION_DOCUMENT' });
  });

  it.each([
    [{ fileName: 'kyc.pdf', content: Buffer.from('PK\u0003\u0004zip').toString('base64') }, 'content', 'KYC.NOT_A_PDF'],
    [{ fileName: 'kyc.pdf', content: 'not base64!' }, 'content', 'FIELD.INVALID_FORMAT'],
    [{ fileName: 'kyc.docx', content: pdf }, 'fileName', 'FIELD.INVALID_FORMAT'],
    [{ fileName: 'kyc.pdf', content: Buffer.from(`%PDF-${'x'.repeat(2000)}`).toString('base64') }, 'content', 'KYC.FILE_TOO_LARGE'],
  ])('refuses %j', (body, path, code) => {
    expect(() => parseKycCompletion(body, 1000)).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path, code })] }));
  });
});
