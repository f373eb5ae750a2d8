export * from './area';
export * from './authority';
export * from './webhooks';
