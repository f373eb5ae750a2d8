export * from './send';
export * from './store';
export * from './queue';
export * from './account-endpoints';
