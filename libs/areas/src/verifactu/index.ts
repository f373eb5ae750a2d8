export { verifactuDefinition } from './definition';
