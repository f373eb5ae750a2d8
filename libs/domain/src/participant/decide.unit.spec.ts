import { specification } from '../test/given-when-then';
import type { ParticipantCommand } from './commands';
import { participantDecider } from './decide';
import type { ParticipantEvent, ParticipantRegistrationData } from './events';
import { participantStreamId } from './events';

const pid = 'iso6523-actorid-upis::0208:0123456749';
const registration: ParticipantRegistrationData = {
  participantId: pid,
  tenantId: 't-1',
  source: 'api',
  businessEntities: [{ names: [{ name: 'Brussels Widgets NV', language: 'nl' }], countryCode: 'BE', additionalIdentifiers: [], contacts: [] }],
  registeredAt: '2026-03-15T10:00:00.000Z',
};
const at = '2026-03-15T10:01:00.000Z';
const registered: ParticipantEvent = { type: 'ParticipantRegistered', data: registration };
const activationRequested: ParticipantEvent = { type: 'SmlActivationRequested', data: { participantId: pid, at } };
const activated: ParticipantEvent = { type: 'SmlActivated', data: { participantId: pid, at } };
const deactivationRequested: ParticipantEvent = { type: 'SmlDeactivationRequested', data: { participantId: pid, at } };
const deactivated: ParticipantEvent = { type: 'SmlDeactivated', data: { participantId: pid, at } };
const kycCompleted = { participantId: pid, method: 'PDF_AUTHORIZATION_DOCUMENT', pdfFile: 'kyc.pdf', sha256: 'ab', sizeBytes: 10, completedAt: at };

const register = (kycRequired: boolean): ParticipantCommand => ({
  type: 'RegisterParticipant',
  data: { ...registration, kycRequired, kycMethods: ['PDF_AUTHORIZATION_DOCUMENT'] },
});
const activate = (tenantId = 't-1'): ParticipantCommand => ({ type: 'RequestSmlActivation', data: { participantId: pid, tenantId, at } });
const deactivate = (tenantId = 't-1'): ParticipantCommand => ({ type: 'RequestSmlDeactivation', data: { participantId: pid, tenantId, at } });

const spec = specification<ParticipantCommand, ParticipantEvent, ReturnType<typeof participantDecider.evolve>>(participantDecider);

describe('#3 participant decider', () => {
  describe('registration', () => {
    it('given nothing, when RegisterParticipant without KYC, then ParticipantRegistered', () => {
      spec.given([]).when(register(false)).then([registered]);
    });

    it('given nothing, when RegisterParticipant with KYC, then ParticipantKycRequested listing the methods', () => {
      spec.given([]).when(register(true)).then([{ type: 'ParticipantKycRequested', data: { ...registration, methods: ['PDF_AUTHORIZATION_DOCUMENT'] } }]);
    });

    it('given a registered participant (any tenant), when RegisterParticipant again, then PARTICIPANT.ALREADY_REGISTERED', () => {
      spec.given([registered]).when({ ...register(false), data: { ...(register(false).data as object), tenantId: 't-2' } } as ParticipantCommand).thenThrows('PARTICIPANT.ALREADY_REGISTERED');
    });

    it('given a KYC-pending participant, when CompleteParticipantKyc, then ParticipantKycCompleted', () => {
      spec
        .given([{ type: 'ParticipantKycRequested', data: { ...registration, methods: ['PDF_AUTHORIZATION_DOCUMENT'] } }])
        .when({ type: 'CompleteParticipantKyc', data: { ...kycCompleted, tenantId: 't-1' } })
        .then([{ type: 'ParticipantKycCompleted', data: kycCompleted }]);
    });

    it('given a created participant, when CompleteParticipantKyc, then PARTICIPANT.KYC_NOT_PENDING', () => {
      spec.given([registered]).when({ type: 'CompleteParticipantKyc', data: { ...kycCompleted, tenantId: 't-1' } }).thenThrows('PARTICIPANT.KYC_NOT_PENDING');
    });

    it('given another tenant\'s KYC-pending participant, when CompleteParticipantKyc, then PARTICIPANT.NOT_FOUND', () => {
      spec
        .given([{ type: 'ParticipantKycRequested', data: { ...registration, methods: [] } }])
        .when({ type: 'CompleteParticipantKyc', data: { ...kycCompleted, tenantId: 't-2' } })
        .thenThrows('PARTICIPANT.NOT_FOUND');
    });
  });

  describe('SML transitions', () => {
    it('given a created participant, when RequestSmlActivation, then SmlActivationRequested', () => {
      spec.given([registered]).when(activate()).then([activationRequested]);
    });

    it('given an activated participant, when RequestSmlActivation, then nothing (idempotent)', () => {
      spec.given([registered, activationRequested, activated]).when(activate()).then([]);
    });

    it('given an activation under way, when RequestSmlActivation, then nothing', () => {
      spec.given([registered, activationRequested]).when(activate()).then([]);
    });

    it('given a deactivated participant, when RequestSmlActivation, then SmlActivationRequested again', () => {
      spec.given([registered, activationRequested, activated, deactivationRequested, deactivated]).when(activate()).then([activationRequested]);
    });

    it('given a deactivation under way, when RequestSmlActivation, then SML.DEACTIVATION_IN_PROGRESS', () => {
      spec.given([registered, activationRequested, activated, deactivationRequested]).when(activate()).thenThrows('SML.DEACTIVATION_IN_PROGRESS');
    });

    it('given an activated participant, when RequestSmlDeactivation, then SmlDeactivationRequested', () => {
      spec.given([registered, activationRequested, activated]).when(deactivate()).then([deactivationRequested]);
    });

    it.each([
      ['not published', [registered]],
      ['activation requested', [registered, activationRequested]],
      ['deactivated', [registered, activationRequested, activated, deactivationRequested, deactivated]],
    ])('given a participant %s, when RequestSmlDeactivation, then SML.NOT_PUBLISHED', (_name, history) => {
      spec.given(history as ParticipantEvent[]).when(deactivate()).thenThrows('SML.NOT_PUBLISHED');
    });

    it('given nothing, when RequestSmlActivation, then PARTICIPANT.NOT_FOUND', () => {
      spec.given([]).when(activate()).thenThrows('PARTICIPANT.NOT_FOUND');
    });

    it('given another tenant\'s participant, when RequestSmlActivation, then PARTICIPANT.NOT_FOUND', () => {
      spec.given([registered]).when(activate('t-2')).thenThrows('PARTICIPANT.NOT_FOUND');
    });

    it('given a KYC-pending participant, when RequestSmlActivation, then PARTICIPANT.KYC_PENDING', () => {
      spec.given([{ type: 'ParticipantKycRequested', data: { ...registration, methods: [] } }]).when(activate()).thenThrows('PARTICIPANT.KYC_PENDING');
    });

    it('given an activation requested, when RecordSmlActivation, then SmlActivated; a redelivery records nothing', () => {
      spec.given([registered, activationRequested]).when({ type: 'RecordSmlActivation', data: { participantId: pid, at } }).then([activated]);
      spec.given([registered, activationRequested, activated]).when({ type: 'RecordSmlActivation', data: { participantId: pid, at } }).then([]);
    });

    it('given a deactivation requested, when RecordSmlDeactivation, then SmlDeactivated; a stale one records nothing', () => {
      spec
        .given([registered, activationRequested, activated, deactivationRequested])
        .when({ type: 'RecordSmlDeactivation', data: { participantId: pid, at } })
        .then([deactivated]);
      spec.given([registered]).when({ type: 'RecordSmlDeactivation', data: { participantId: pid, at } }).then([]);
    });
  });

  it('names the stream from the participant id, case-insensitively', () => {
    expect(participantStreamId(pid)).toBe(participantStreamId(pid.toUpperCase()));
    expect(participantStreamId(pid)).toMatch(/^participant-[0-9a-f-]{36}$/);
  });
});
