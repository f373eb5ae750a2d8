export { verifactuDefinition } from './definition';
export { verifactuExamples } from './examples';
