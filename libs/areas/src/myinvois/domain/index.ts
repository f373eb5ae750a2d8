export * from './rejection';
