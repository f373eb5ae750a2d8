export * from './area';
export * from './authority';
export * from './printable';
export * from './webhooks';
