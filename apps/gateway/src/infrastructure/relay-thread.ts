// The gateway's outbox relay on a thread of its own (OutboxPublishing starts it when OUTBOX_RELAY is
// `thread`, the default): the relay is the shared one (libs/domain outbox-publishing/); this entry only
// gives it the gateway's event registry, which a thread must build itself.
import 'reflect-metadata';
import { platformEventRegistry, runRelayThread } from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';

runRelayThread('gateway', () => platformEventRegistry(areaEventPlugins()));
