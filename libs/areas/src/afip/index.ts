export { afipDefinition } from './definition';
export { CATALOGS } from './catalogs';
export { SequenceQuery, VoucherQuery } from './schema';
export { afipExamples } from './examples';
