import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/api-key.guard';
import { HealthReport } from './health-report';

/** Public probes: up or down, nothing more (the detail is on the operator port, health/operator-server.ts). */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthReport) {}

  /** Liveness without dependencies; also the bare route `npm run bench` uses as the ceiling. */
  @Get('live')
  @Public()
  @ApiOperation({ summary: 'Liveness: the process answers HTTP.' })
  @ApiResponse({ status: 200, description: '`{"status": "up"}`' })
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({ summary: 'Readiness: this gateway can take requests (its database answers). 503 when it cannot.' })
  @ApiResponse({ status: 200, description: '`{"status": "up"}`' })
  @ApiResponse({ status: 503, description: '`{"status": "down"}`' })
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const up = await this.health.ready();
    await reply.status(up ? 200 : 503).send({ status: up ? 'up' : 'down' });
  }
}
