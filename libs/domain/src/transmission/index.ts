export * from './events';
export * from './decide';
