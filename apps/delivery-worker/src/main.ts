import { createLogger } from '@einvoice/domain';
import { runWorker, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { SandboxAccessPoint } from './access-point/sandbox-access-point';
import { createDeliveryHandler } from './deliver-document';

const log = createLogger('delivery-worker');

/** Consumes submitted documents and delivers them over Peppol (sandbox access point by default). */
startWorkerProcess('delivery-worker', log, () =>
  runWorker('delivery-worker', log, (runtime) =>
    createDeliveryHandler({
      store: runtime.store,
      accessPoint: new SandboxAccessPoint(runtime.dataSource, Number(process.env.SANDBOX_AP_LATENCY_MS ?? 0)),
      groupId: runtime.groupId,
      log,
    }),
  ),
);
