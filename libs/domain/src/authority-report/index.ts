export * from './events';
export * from './commands';
export * from './evolve';
export * from './decide';
export * from './chain';
