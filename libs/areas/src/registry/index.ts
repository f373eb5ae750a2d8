export * from './area';
export * from './authority';
export * from './registry';
export * from './webhooks';
