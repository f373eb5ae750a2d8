export * from './submission';
export * from './rejection';
