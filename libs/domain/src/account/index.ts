export * from './document-states';
export * from './events';
export * from './event-samples';
export * from './event-schemas';
