import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { notFound } from '@einvoice/domain';
import { findReceivableDocumentType, receivableDocumentTypesOf, renderServiceGroup, renderSignedServiceMetadata } from '@einvoice/areas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/api-key.guard';
import { requireParticipantId } from '../participants/participant-records';
import { ParticipantsService } from '../participants/participants.service';

/**
 * Read-only Peppol SMP 1.x REST interface (phoss-SMP paths `/{ServiceGroupId}` and
 * `/{ServiceGroupId}/services/{DocTypeId}`, under `/smp`) for the participants created here.
 * Public: SMP data is what every sending access point reads.
 */
@ApiTags('SMP (/smp)')
@Public()
@Controller('smp')
export class SmpController {
  constructor(private readonly participants: ParticipantsService) {}

  @Get(':participantId')
  @ApiOperation({ summary: 'ServiceGroup: the document types the participant receives, as references.' })
  @ApiParam({ name: 'participantId', description: 'URL-encoded, e.g. iso6523-actorid-upis%3A%3A9925%3Abe0123456749' })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 404, description: 'Not a participant hosted here' })
  async serviceGroup(@Param('participantId') raw: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const pid = await this.hosted(raw);
    await reply.header('content-type', 'application/xml; charset=utf-8').send(renderServiceGroup(pid, this.baseUrl(request), receivableDocumentTypesOf(pid)));
  }

  @Get(':participantId/services/:documentTypeId')
  @ApiOperation({ summary: 'SignedServiceMetadata: the AS4 endpoint and AP certificate for one document type, XMLDSig-signed with the SMP certificate.' })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 404, description: 'Not a participant hosted here, or a document type it does not receive' })
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
