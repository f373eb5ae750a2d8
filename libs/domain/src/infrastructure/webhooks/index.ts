export * from './send';
export * from './store';
export * from './queue';
