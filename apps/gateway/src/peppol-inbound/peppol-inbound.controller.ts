import { Body, Controller, Headers, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ENGINE_SECRET_HEADER } from '@einvoice/areas';
import { Public } from '../auth/api-key.guard';
import { carriesEngineSecret } from './engine-secret';
import { readInboundMessage } from './inbound-message';
import { PeppolInboundService } from './peppol-inbound.service';

/**
 * `POST /internal/peppol/inbound`: the AS4 engine's callback for each message another access point
 * sent here (docs/peppol-as4.md "Inbound"). Internal: no API key (`@Public()`, the engine is no tenant)
 * but the engine's secret, and left out of the public OpenAPI document. Its answers are the contract's
 * (`{status}` or `{code, message}`), not the API's error shape: the engine reads them, not a client.
 */
@ApiExcludeController()
@Public()
@Controller('internal/peppol')
export class PeppolInboundController {
  constructor(private readonly service: PeppolInboundService) {}

  @Post('inbound')
  async inbound(@Headers(ENGINE_SECRET_HEADER) secret: string | undefined, @Body() body: unknown, @Res() reply: FastifyReply): Promise<void> {
    if (!carriesEngineSecret(secret, this.service.settings.engineSecret)) {
      await reply.status(401).send({ code: 'PEPPOL.ENGINE_SECRET_INVALID', message: `Only the AS4 engine is served here, with the ${ENGINE_SECRET_HEADER} both sides share (AS4_ENGINE_SECRET).` });
      return;
    }
    const read = readInboundMessage(body);
    if ('problem' in read) {
      // Not the engine's callback as the contract has it (an engine bug): no receipt for what nothing records.
      await reply.status(422).send({ code: 'PEPPOL.INBOUND_MALFORMED', message: read.problem });
      return;
    }
    const answer = await this.service.receive(read.message);
    await reply.status(answer.statusCode).send(answer.body);
  }
}
