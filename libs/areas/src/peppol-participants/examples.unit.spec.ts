import { participantExamples } from './examples';
import { parseCreateParticipant, parseKycCompletion } from './schema';

/** #47 the OpenAPI document's examples of the participant routes are bodies they accept. */
describe('#47 the Peppol participant request examples', () => {
  it.each(Object.entries(participantExamples.create))('create %s is accepted', (_name, example) => {
    expect(parseCreateParticipant(example.value).participantId.id).toBe('iso6523-actorid-upis::0208:1082643130');
  });

  it.each(Object.entries(participantExamples.kyc))('KYC %s is a PDF', (_name, example) => {
    expect(parseKycCompletion(example.value, 700_000).bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
