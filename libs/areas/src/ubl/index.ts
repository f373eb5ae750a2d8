export * from './document';
export { ublNamespaces, writeUbl } from './write';
