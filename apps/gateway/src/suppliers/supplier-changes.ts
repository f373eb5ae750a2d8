import { Injectable } from '@nestjs/common';
import { SUPPLIER_CHANGED_CHANNEL } from '@einvoice/domain/infrastructure';
import { PgNotifications } from '../infrastructure/pg-notifications';
import { forgetEverySupplier, forgetSupplier } from './supplier-lookup';

/**
 * A supplier changed or deactivated through another gateway process (#47): its projection NOTIFYs the
 * supplier's id at commit, and this process drops it from its caches, so its next document is checked
 * against what was committed. When the listener was down (notifications lost), every cache is dropped.
 */
@Injectable()
export class SupplierChanges {
  constructor(notifications: PgNotifications) {
    notifications.subscribe(SUPPLIER_CHANGED_CHANNEL, { notified: forgetSupplier, resubscribed: forgetEverySupplier });
  }
}
