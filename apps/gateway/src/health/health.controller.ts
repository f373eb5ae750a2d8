import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/api-key.guard';
import { HealthReport } from './health-report';

/** The probes' one answer: `up`, or `down` (503) for readiness. */
const probeSchema = (status: 'up' | 'down') => ({
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['up', 'down'], example: status } },
  example: { status },
});

/** Public probes: up or down, nothing more (the detail is on the operator port, health/operator-server.ts). */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthReport) {}

  /** Liveness without dependencies; also the bare route `npm run bench` uses as the ceiling. */
  @Get('live')
  @Public()
  @ApiOperation({
    summary: 'Liveness: the process answers HTTP.',
    description: 'Checks nothing else, so that an orchestrator restarts the process only when it is stuck, not when its database is down. No API key.',
  })
  @ApiResponse({ status: 200, description: 'Alive.', schema: probeSchema('up') })
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    summary: 'Readiness: this gateway can take requests (its database answers). 503 when it cannot.',
    description: 'For a load balancer: send no traffic while it answers 503. Up or down only; the detail of each dependency is on the operator port. No API key.',
  })
  @ApiResponse({ status: 200, description: 'Ready.', schema: probeSchema('up') })
  @ApiResponse({ status: 503, description: 'Not ready: its database does not answer.', schema: probeSchema('down') })
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const up = await this.health.ready();
    await reply.status(up ? 200 : 503).send({ status: up ? 'up' : 'down' });
  }
}
