import { plainToInstance } from 'class-transformer';

/**
 * `plainToInstance(cls, body, { enableImplicitConversion: false, exposeDefaultValues: false })` for
 * a parsed request body, built by a walk of our own.
 *
 * Why (issue 11): class-transformer's executor asks its metadata storage, at every key of every
 * object, for exposed, excluded and renamed properties, custom transforms and the reflected array
 * type, walking the class's ancestors each time; none of our DTOs uses those decorators, only
 * `@Type` (fields.ts `Nested`, `NestedList`). It was 4.6% of the gateway's CPU on the submission path.
 * This walk makes the same objects the executor makes (class-transformer 0.5's
 * `TransformOperationExecutor.transform`, PLAIN_TO_CLASS): the same keys in the same order, the
 * same skipped ones (`__proto__`, `constructor`, a prototype's read-only properties and methods),
 * a class instance where `@Type` names one, or where the value is itself an instance (an
 * ImpreciseNumber), values never converted. Where class-transformer's storage holds anything else
 * (an `@Expose`, `@Exclude`, `@Transform`, a discriminator, a built-in `@Type`), or the body holds a
 * value JSON never makes, it hands the body to plainToInstance itself. A differential property test
 * (validation-verdict.unit.spec.ts) holds the two to the same instances over every DTO class.
 */
export function dtoInstance<T extends object>(cls: new () => T, body: Record<string, unknown>): T {
  if (!onlyTypeMetadata()) return plainToInstance(cls, body, PLAIN_TO_INSTANCE);
  try {
    return build(body, cls) as T;
  } catch (error) {
    if (error !== UNSUPPORTED) throw error;
    return plainToInstance(cls, body, PLAIN_TO_INSTANCE);
  }
}

const PLAIN_TO_INSTANCE = { enableImplicitConversion: false, exposeDefaultValues: false } as const;
const UNSUPPORTED = Symbol('a value class-transformer converts');
type Cls = new () => object;

interface TypeMetadata {
  readonly typeFunction?: (options?: unknown) => unknown;
  readonly reflectedType?: unknown;
  readonly options?: { readonly discriminator?: unknown };
}

interface TransformerStorage {
  readonly _typeMetadatas: Map<unknown, Map<string, TypeMetadata>>;
  readonly _transformMetadatas: Map<unknown, Map<string, unknown[]>>;
  readonly _exposeMetadatas: Map<unknown, Map<string, unknown>>;
  readonly _excludeMetadatas: Map<unknown, Map<string, unknown>>;
  findTypeMetadata(target: unknown, propertyName: string): TypeMetadata | undefined;
}

// Not exported from class-transformer's index: the storage its decorators write to.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const storage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage }).defaultMetadataStorage;

/** The types the executor converts values to (String(value), dates, buffers, maps, sets): left to it. */
const CONVERTED: readonly unknown[] = [String, Number, Boolean, Date, Buffer, Map, Set];

let checkedSignature = -1;
let supported = false;

/**
 * Whether `@Type`s naming classes are all the storage holds; looked at again when a class adds
 * metadata (a class's decorators all run when it is defined, so the number of decorated classes
 * tells: nothing per request but four sizes).
 */
function onlyTypeMetadata(): boolean {
  const signature = storage._typeMetadatas.size + storage._transformMetadatas.size + storage._exposeMetadatas.size + storage._excludeMetadatas.size;
  if (signature === checkedSignature) return supported;
  checkedSignature = signature;
  typesOfClass.clear();
  supported =
    storage._transformMetadatas.size === 0 &&
    storage._exposeMetadatas.size === 0 &&
    storage._excludeMetadatas.size === 0 &&
    [...storage._typeMetadatas.values()].every((properties) =>
      [...properties.values()].every((m) => !m.options?.discriminator && typeof m.typeFunction === 'function' && !CONVERTED.includes(m.reflectedType) && !CONVERTED.includes(m.typeFunction())),
    );
  return supported;
}

/** Per class: its properties' `@Type`s, its own first, then its ancestors' (as findTypeMetadata looks). */
const typesOfClass = new Map<unknown, Map<string, TypeMetadata>>();

function typesOf(cls: Cls): Map<string, TypeMetadata> {
  let types = typesOfClass.get(cls);
  if (types === undefined) {
    types = new Map();
    for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      for (const [property, metadata] of storage._typeMetadatas.get(c) ?? []) if (!types.has(property)) types.set(property, metadata);
    }
    typesOfClass.set(cls, types);
  }
  return types;
}

function build(value: unknown, targetType: Cls | undefined): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    // forEach, as the executor: a hole is skipped (JSON makes none).
    value.forEach((element) => out.push(build(element, targetType)));
    return out;
  }
  if (typeof value !== 'object' || value === null) return value;
  // What JSON never makes and the executor converts (a Set, a Map, a Date, a Buffer, a promise) is left to it.
  if (value instanceof Set || value instanceof Map || value instanceof Date || Buffer.isBuffer(value) || typeof (value as { then?: unknown }).then === 'function') throw UNSUPPORTED;
  const source = value as Record<string, unknown>;
  // As the executor: an instance (the exact parser's ImpreciseNumber) keeps its class when no @Type names one.
  let type = targetType;
  if (type === undefined && source.constructor !== Object && source.constructor !== Array) type = source.constructor as Cls | undefined;
  const out = (type ? new type() : {}) as Record<string, unknown>;
  const types = type ? typesOf(type) : undefined;
  const prototype = (out.constructor as { prototype?: object }).prototype;
  for (const key of Object.keys(source)) {
    if (key === '__proto__' || key === 'constructor') continue;
    // The executor leaves a prototype's read-only properties and methods alone.
    if (prototype) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      if ((descriptor && !descriptor.set) || out[key] instanceof Function) continue;
    }
    out[key] = build(source[key], types?.get(key)?.typeFunction?.() as Cls | undefined);
  }
  return out;
}
