import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
type SchemaObject = ReturnType<typeof validationMetadatasToSchemas>[string];

/**
 * What the project's own validators (registerDecorator / ValidateBy, by name) say in a schema. Without
 * an entry, class-validator-jsonschema answers a custom validator with a `$ref` to the property's
 * TypeScript type ("Array", "Object"), which no document defines: the broken references of #47.
 */
const customValidatorSchemas: Readonly<Record<string, SchemaObject>> = {
  isCalendarDate: { type: 'string', format: 'date' },
  // Checked with the array by IsArray/ValidateNested; this one only refuses nested arrays.
  noArrayElements: {},
  isNotBlank: { type: 'string', minLength: 1, pattern: '\\S' },
  isStringOrNumber: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  isDecimal: { oneOf: [{ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }, { type: 'number' }] },
  isAeatAmount: { oneOf: [{ type: 'string', pattern: '^-?\\d{1,12}(\\.\\d{1,2})?$' }, { type: 'number' }] },
};

/**
 * The request bodies' schemas from the same class-validator DTOs that validate requests (so the
 * document cannot drift): nested lists typed by class-transformer's @Type (libs/areas/src/shared/fields.ts
 * Nested/NestedList; class-validator-jsonschema's README, "Nested schemas"), custom validators by the
 * table above, and an unknown one adding nothing rather than a reference to nowhere.
 */
export function requestSchemas(refPointerPrefix: string): Record<string, SchemaObject> {
  return validationMetadatasToSchemas({
    refPointerPrefix,
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: {
      [ValidationTypes.CUSTOM_VALIDATION]: (meta: ValidationMetadata) => customValidatorSchemas[meta.name ?? ''] ?? {},
    },
  }) as Record<string, SchemaObject>;
}
