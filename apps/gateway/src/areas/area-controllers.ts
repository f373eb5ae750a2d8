import type { Type } from '@nestjs/common';
import { areas } from '@einvoice/areas';
import { MyInvoisController } from './myinvois/myinvois.controller';
import { myInvoisProviders } from './myinvois/myinvois.providers';
import { MyInvoisReceivedController } from './myinvois/received.controller';
import { MyInvoisSubmissionController } from './myinvois/submission.controller';
import { peppolAreaController } from './peppol/peppol.controller';
import { UaeController, UaeUnifiedController } from './uae/uae.controller';
import { uaeProviders } from './uae/uae.providers';
import { VerifactuController } from './verifactu/verifactu.controller';
import { KsefController } from './ksef/ksef.controller';
import { JofotaraController } from './jofotara/jofotara.controller';
import { FirsController } from './firs/firs.controller';
import { AfipController } from './afip/afip.controller';
import { areaRoutesController } from '../pipeline/area-routes.controller';

/**
 * Each area's thin controllers by area code (Belgium's, Germany's and Singapore's made from one shape), and the
 * services of those that have their own: the one place the gateway names an area. An area not named here
 * is served by the pipeline's own routes (`areaRoutesController`: the toy area). The gateway serves the
 * areas the registry lists, so a test-only area's routes exist only where `EINVOICE_TEST_AREAS=1`.
 */
const controllersOf: Readonly<Record<string, readonly Type<unknown>[]>> = {
  be: [peppolAreaController('be')],
  de: [peppolAreaController('de')],
  sg: [peppolAreaController('sg')],
  my: [MyInvoisController, MyInvoisSubmissionController, MyInvoisReceivedController],
  ae: [UaeController, UaeUnifiedController],
  es: [VerifactuController],
  pl: [KsefController],
  jo: [JofotaraController],
  ng: [FirsController],
  ar: [AfipController],
};

/** Whether the pipeline's own routes serve the area (no controller of its own): its cancel route is theirs. */
export const servedByPipelineRoutes = (code: string): boolean => !controllersOf[code];

/** The services of an area whose controllers need their own (the others call the pipeline), by area code. */
const providersOf: Readonly<Record<string, readonly Type<unknown>[]>> = {
  my: myInvoisProviders,
  ae: uaeProviders,
};

/** The controllers of every registered area. */
export const areaControllers: Type<unknown>[] = areas.flatMap((area) => controllersOf[area.code] ?? [areaRoutesController(area.code)]);

/** The services those controllers need, of every registered area. */
export const areaProviders: Type<unknown>[] = areas.flatMap((area) => providersOf[area.code] ?? []);
