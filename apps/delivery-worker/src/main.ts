import { areaEventPlugins } from '@einvoice/areas';
import { createLogger } from '@einvoice/domain';
import { platformEventRegistry, runWorker, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { SandboxAccessPoint } from './access-point/sandbox-access-point';
import { createDeliveryHandler } from './deliver-document';
import { createSmlHandler } from './sml/drive-sml';
import { SandboxSml } from './sml/sml-connector';

const log = createLogger('delivery-worker');

/**
 * Consumes submitted documents and delivers them over Peppol (sandbox access point by default),
 * and participant events, to drive their SML state (sandbox SML by default).
 */
startWorkerProcess('delivery-worker', log, () =>
  runWorker(
    'delivery-worker',
    log,
    platformEventRegistry(areaEventPlugins()),
    (runtime) => {
      const deliver = createDeliveryHandler({
        store: runtime.store,
        accessPoint: new SandboxAccessPoint(runtime.dataSource, Number(process.env.SANDBOX_AP_LATENCY_MS ?? 0)),
        groupId: runtime.groupId,
        log,
      });
      const sml = createSmlHandler({
        store: runtime.store,
        sml: new SandboxSml(runtime.dataSource, process.env.PEPPOL_SMP_ID ?? 'einvoice-gateway-smp', Number(process.env.SANDBOX_SML_LATENCY_MS ?? 0)),
        groupId: runtime.groupId,
        log,
      });
      return (event, context) => (event.streamId.startsWith('participant-') ? sml(event, context) : deliver(event, context));
    },
    (topics) => [topics.documents, topics.participants],
  ),
);
