/**
 * The lookup answer of seed 000 "Peppol participant", built from a participant as stored.
 * Pure: the gateway reads the record and the configuration, this shapes them.
 */
import type { ParticipantBusinessEntity } from '@einvoice/domain';
import { metadataProfileIdsOf } from './document-types';
import { ParticipantId, isParticipantId, parseParticipantId } from './participant-id';

/** Namespace of the Peppol Directory business card, whose field names the seed's shape uses. */
export const LOOKUP_XMLNS = 'http://www.peppol.eu/schema/pd/businesscard/20180621/';

/** A created participant as the read model holds it. */
export interface ParticipantRecord {
  readonly participantId: string;
  /** `not_published`, `activation_requested`, `activated`, `deactivation_requested`, `deactivated`. */
  readonly smlStatus: string;
  readonly businessEntities: readonly ParticipantBusinessEntity[];
  readonly pdfFile: string | null;
  readonly registrationDate: string | null;
}

/** One `Participants` object of the seed. */
export interface LookupParticipants {
  readonly xmlns: string;
  readonly Participant: {
    readonly Meta: {
      readonly ParticipantIdentifier: { readonly Scheme: string; readonly IdentifierCode: string; readonly IdentifierValue: string };
      readonly SmlActivation: boolean;
      readonly PdActivation: boolean;
      readonly PdfFile: string | null;
      readonly RegistrationDate: string | null;
    };
    readonly BusinessCard: {
      readonly BusinessEntity: {
        readonly Names: { readonly Name: readonly { readonly Name: string; readonly Language: string | null }[] };
        readonly CountryCode: string;
        readonly GeographicalInformation: string | null;
        readonly AdditionalInformation: string | null;
      };
    };
    readonly AccessPointConfigurations: {
      readonly AccessPointConfiguration: { readonly EndpointId: string; readonly MetadataProfileIds: { readonly ProfileId: readonly string[] } };
    };
  };
}

/**
 * `SmlActivation` is true only once the SML confirmed (`activated`); `PdActivation` is false:
 * we do not publish to the Peppol Directory. The seed's `BusinessEntity` is one object: the
 * first entity of the request is shown. `ProfileId[]` are the processes of the document types the
 * participant receives (`receivableDocumentTypesOf`).
 */
export function toLookupParticipants(record: ParticipantRecord, endpointId: string): LookupParticipants {
  const parsed = parseParticipantId(record.participantId, 'participantId');
  const pid: ParticipantId = isParticipantId(parsed) ? parsed : { scheme: 'iso6523-actorid-upis', code: '', value: record.participantId, id: record.participantId };
  const entity = record.businessEntities[0];
  return {
    xmlns: LOOKUP_XMLNS,
    Participant: {
      Meta: {
        ParticipantIdentifier: { Scheme: pid.scheme, IdentifierCode: pid.code, IdentifierValue: pid.value },
        SmlActivation: record.smlStatus === 'activated',
        PdActivation: false,
        PdfFile: record.pdfFile,
        RegistrationDate: record.registrationDate,
      },
      BusinessCard: {
        BusinessEntity: {
          Names: { Name: (entity?.names ?? []).map((n) => ({ Name: n.name, Language: n.language ?? null })) },
          CountryCode: entity?.countryCode ?? '',
          GeographicalInformation: entity?.geographicalInformation ?? null,
          AdditionalInformation: entity?.additionalInformation ?? null,
        },
      },
      AccessPointConfigurations: {
        AccessPointConfiguration: { EndpointId: endpointId, MetadataProfileIds: { ProfileId: [...metadataProfileIdsOf(pid.id)] } },
      },
    },
  };
}
