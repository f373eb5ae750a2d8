export * from './document-states';
export * from './events';
