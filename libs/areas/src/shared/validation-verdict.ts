import { ValidationTypes, getMetadataStorage, type ValidationArguments } from 'class-validator';

/**
 * Whether `validateSync(instance, { whitelist: true, forbidNonWhitelisted: false, forbidUnknownValues:
 * false })` would find nothing wrong, answered without building its error tree; the instance's
 * non-whitelisted properties are stripped on the way, as validateSync strips them.
 *
 * Why (issue 11): class-validator's executor builds a ValidationError for every property it looks at,
 * valid or not, filters each property's rules four times, and then strips the empty errors: on the
 * gateway's submission path it was 9.4% of the gateway's CPU (`BENCH_CPU_PROF=gateway`, accept
 * phase), for bodies that are almost always valid. This walk runs the very same rules (the same
 * metadata from class-validator's storage, the same constraint instances and arguments, in the
 * executor's order: optional, defined, then the others, then nested), so it agrees with validateSync
 * by construction; `validateBody` asks validateSync for the errors only when this says no, so the
 * messages are class-validator's own. A differential property test (validation-verdict.unit.spec.ts)
 * holds the two to the same answer over every DTO class of every area.
 *
 * Mirrors class-validator 0.14's ValidationExecutor (`execute`, `whitelist`, `performValidations`,
 * `customValidations`, `nestedValidations`) with `ignoreAsyncValidations` (validateSync's): an async
 * rule is skipped, a promise returned by a sync rule is never waited for.
 */
export function passesValidation(instance: object): boolean {
  return execute(instance, undefined);
}

/** The parts of class-validator's metadata this walk reads (ValidationMetadata). */
interface RuleMetadata {
  readonly type: string;
  readonly target: (new () => object) | string;
  readonly propertyName: string;
  readonly constraintCls: unknown;
  readonly constraints: unknown[];
  readonly each: boolean;
}

interface ConstraintMetadata {
  readonly async: boolean;
  readonly instance: { validate(value: unknown, args: ValidationArguments): unknown };
}

interface Storage {
  getTargetValidationMetadatas(target: unknown, schema: string | undefined, always: boolean, strictGroups: boolean, groups?: string[]): RuleMetadata[];
  groupByPropertyName(metadata: RuleMetadata[]): Record<string, RuleMetadata[]>;
  getTargetValidatorConstraints(target: unknown): ConstraintMetadata[];
}

/**
 * A rule's constraint, looked up once with the grouping (the executor looks them up at every property of
 * every validation). A rule's constraint is registered by its decorator before the rule itself, and a rule
 * added later makes a new grouping (validation-metadata-cache.ts): the list is the one the executor would find.
 */
interface BoundConstraint {
  readonly rule: RuleMetadata;
  readonly constraint: ConstraintMetadata;
}

const storage = getMetadataStorage() as unknown as Storage;

/** Keyed by the grouping itself: a class loaded later empties the metadata cache (validation-metadata-cache.ts), and with it these. */
const verdictsByGrouping = new WeakMap<Record<string, RuleMetadata[]>, (object: object) => boolean>();

function execute(object: object, schema: string | undefined): boolean {
  // The executor's lookup, with its arguments (no groups, not `always`, not strict).
  const grouped = storage.groupByPropertyName(storage.getTargetValidationMetadatas(object.constructor, schema, false, false, undefined));
  let verdict = verdictsByGrouping.get(grouped);
  if (!verdict) verdictsByGrouping.set(grouped, (verdict = compileVerdict(grouped)));
  return verdict(object);
}

/**
 * The walk of one class's rules as a function of its own, generated from its grouping (issue 11). Each
 * rule's constraint is called from a call site of its own, which V8 then sees call one function only: in
 * one shared loop every site saw every constraint of every DTO class (megamorphic calls, an arguments
 * object looked up and built generically), and that loop was ~7% of the gateway's request thread. Per
 * property, in the grouping's order, as performValidations: every condition is asked (any false skips the
 * property), then the IS_DEFINED rules, the custom rules (an `each` rule over an array's, a Set's or a
 * Map's values; an async constraint skipped, a promise never waited for), then the nested rules. Only
 * names of the metadata's own (as JSON string literals) and indexes reach the generated source.
 */
function compileVerdict(grouped: Record<string, RuleMetadata[]>): (object: object) => boolean {
  const conditions: Array<(object: object, value: unknown) => boolean> = [];
  const constraints: BoundConstraint[] = [];
  const nested: Array<readonly RuleMetadata[]> = [];
  const lines: string[] = [];
  const checks = (rules: readonly RuleMetadata[]) => {
    for (const rule of rules) {
      for (const constraint of storage.getTargetValidatorConstraints(rule.constraintCls)) {
        if (constraint.async) continue;
        const k = constraints.push({ rule, constraint }) - 1;
        lines.push(`      args = { targetName, property: ${JSON.stringify(rule.propertyName)}, object, value, constraints: r${k}.constraints };`);
        if (rule.each) lines.push(`      if (isCollection(value) ? !eachHolds(k${k}, value, args) : !isTrue(k${k}.validate(value, args))) return false;`);
        else lines.push(`      if (!isTrue(k${k}.validate(value, args))) return false;`);
      }
    }
  };
  for (const name of Object.keys(grouped)) {
    const all = grouped[name];
    const others = all.filter((m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST);
    lines.push(`    value = object[${JSON.stringify(name)}];`);
    const asked = others.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION).map((m) => conditions.push(m.constraints[0] as (object: object, value: unknown) => boolean) - 1);
    lines.push(`    if (${asked.length ? asked.map((c) => `!c${c}(object, value)`).join(' | ') : 'false'}) {} else {`);
    checks(all.filter((m) => m.type === ValidationTypes.IS_DEFINED));
    checks(others.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION));
    const nestedRules = others.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION);
    if (nestedRules.length) lines.push(`      if (!nestedHold(value, n${nested.push(nestedRules) - 1})) return false;`);
    lines.push('    }');
  }
  const source = [
    ...conditions.map((_, i) => `const c${i} = conditions[${i}];`),
    ...constraints.map((_, i) => `const k${i} = constraints[${i}].constraint.instance, r${i} = constraints[${i}].rule;`),
    ...nested.map((_, i) => `const n${i} = nested[${i}];`),
    'return function verdict(object) {',
    '  // whitelist: a property without any rule is removed before the rules run (they may look at the object).',
    '  for (const key of Object.keys(object)) { const rules = grouped[key]; if (!rules || rules.length === 0) delete object[key]; }',
    '  const targetName = object.constructor ? object.constructor.name : undefined;',
    '  let value, args;',
    ...lines,
    '  return true;',
    '};',
  ].join('\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from the metadata's names and indexes only (above)
  const build = new Function('grouped', 'conditions', 'constraints', 'nested', 'isTrue', 'isCollection', 'eachHolds', 'nestedHold', source);
  return build(grouped, conditions, constraints, nested, isTrue, isCollection, eachHolds, nestedHold) as (object: object) => boolean;
}

/** A constraint's answer as validateSync counts it: a promise is never waited for (never an error). */
function isTrue(valid: unknown): boolean {
  return isPromise(valid) || Boolean(valid);
}

function isCollection(value: unknown): boolean {
  return Array.isArray(value) || value instanceof Set || value instanceof Map;
}

/** An `each` rule over a collection's values; one promise among the answers makes the whole rule async: validateSync never sees its outcome. */
function eachHolds(instance: ConstraintMetadata['instance'], value: unknown, args: ValidationArguments): boolean {
  const items = value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value as Set<unknown>);
  const results = items.map((item) => instance.validate(item, args));
  return results.some(isPromise) || results.every(Boolean);
}

function nestedHold(value: unknown, rules: readonly RuleMetadata[]): boolean {
  if (value === undefined) return true;
  for (const rule of rules) {
    if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
      // Each element is validated as a property of the collection with the same nested rules only.
      let valid = true;
      (value as { forEach(each: (item: unknown) => void): void }).forEach((item) => {
        if (valid && !nestedHold(item, rules)) valid = false;
      });
      if (!valid) return false;
    } else if (value instanceof Object) {
      if (!execute(value, typeof rule.target === 'string' ? rule.target : rule.target.name)) return false;
    } else {
      return false;
    }
  }
  return true;
}

function isPromise(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
