import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { notFound } from '@einvoice/domain';
import { findReceivableDocumentType, receivableDocumentTypesOf, renderServiceGroup, renderSignedServiceMetadata } from '@einvoice/areas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/api-key.guard';
import { errorResponse } from '../http/openapi';
import { xmlContent } from '../http/openapi-answers';
import { requireParticipantId } from '../participants/participant-records';
import { ParticipantsService } from '../participants/participants.service';

/**
 * Read-only Peppol SMP 1.x REST interface (phoss-SMP paths `/{ServiceGroupId}` and
 * `/{ServiceGroupId}/services/{DocTypeId}`, under `/smp`) for the participants created here.
 * Public: SMP data is what every sending access point reads.
 */
const participantIdParam = { name: 'participantId', description: 'The participant id `iso6523-actorid-upis::<ISO 6523 code>:<value>`, URL-encoded.', example: 'iso6523-actorid-upis::0208:1082643130' };

@ApiTags('SMP (/smp)')
@Public()
@Controller('smp')
export class SmpController {
  constructor(private readonly participants: ParticipantsService) {}

  @Get(':participantId')
  @ApiOperation({
    summary: 'ServiceGroup: the document types the participant receives, as references.',
    description: 'What a sending access point reads after the SML named this SMP (Peppol SMP 1.x): one ServiceMetadataReference per document type, each a URL of the route below. 404 `SMP.SERVICE_GROUP_NOT_FOUND`: no participant created here under this id.',
  })
  @ApiParam(participantIdParam)
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'The ServiceGroup XML.', content: xmlContent })
  @ApiResponse({ status: 404, ...errorResponse, description: 'Not a participant hosted here (SMP.SERVICE_GROUP_NOT_FOUND).' })
  async serviceGroup(@Param('participantId') raw: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const pid = await this.hosted(raw);
    await reply.header('content-type', 'application/xml; charset=utf-8').send(renderServiceGroup(pid, this.baseUrl(request), receivableDocumentTypesOf(pid)));
  }

  @Get(':participantId/services/:documentTypeId')
  @ApiOperation({
    summary: 'SignedServiceMetadata: the AS4 endpoint and AP certificate for one document type, XMLDSig-signed with the SMP certificate.',
    description: 'Where and how to send this document type to the participant: the process, the AS4 endpoint URL and the access point certificate, signed so that a sender can trust it. 404 `SMP.SERVICE_GROUP_NOT_FOUND`, or `SMP.DOCUMENT_TYPE_NOT_FOUND`: a document type it does not receive.',
  })
  @ApiParam(participantIdParam)
  @ApiParam({
    name: 'documentTypeId',
    description: 'The document type id `<scheme>::<value>` (or its bare value), URL-encoded, as the ServiceGroup\'s references give it.',
    example: 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'The SignedServiceMetadata XML.', content: xmlContent })
  @ApiResponse({ status: 404, ...errorResponse, description: 'Not a participant hosted here, or a document type it does not receive.' })
  async serviceMetadata(@Param('participantId') raw: string, @Param('documentTypeId') documentTypeId: string, @Res() reply: FastifyReply) {
    const pid = await this.hosted(raw);
    const type = findReceivableDocumentType(pid, documentTypeId);
    if (!type) throw notFound('SMP.DOCUMENT_TYPE_NOT_FOUND', `Participant ${pid} has no service metadata for ${documentTypeId}.`);
    const { smp, technicalContactUrl } = this.participants.config;
    const endpoint = { endpointUri: smp.endpointUrl, certificate: smp.apCertificate, serviceDescription: 'e-invoicing gateway access point', technicalContactUrl };
    const xml = renderSignedServiceMetadata(pid, type, endpoint, smp.signingKey);
    await reply.header('content-type', 'application/xml; charset=utf-8').send(xml);
  }

  /** A participant created here, or this access point itself (it receives the MLS of what it sent). */
  private async hosted(raw: string): Promise<string> {
    const pid = requireParticipantId(raw, 'participantId').id;
    if (pid === this.participants.config.serviceProviderParticipantId) return pid;
    if (!(await this.participants.findCreated(pid))) throw notFound('SMP.SERVICE_GROUP_NOT_FOUND', `No service group ${pid} in this SMP.`);
    return pid;
  }

  private baseUrl(request: FastifyRequest): string {
    return this.participants.config.smpPublicUrl ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`;
  }
}
