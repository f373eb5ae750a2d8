/** Peppol participant area (`/1.0`, seed 000): ids, body schema, lookup shape, SMP XML. */
export * from './participant-schemes';
export * from './participant-id';
export * from './document-types';
export * from './schema';
export * from './examples';
export * from './lookup';
export * from './smp';
export * from './smp-signature';
export * from './sml-connector';
export * from './bdmsl-sml';
