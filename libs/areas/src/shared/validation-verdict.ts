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

/** One property's rules, split as performValidations splits them. */
interface PropertyRules {
  readonly name: string;
  readonly defined: readonly BoundRule[];
  readonly conditions: readonly RuleMetadata[];
  readonly custom: readonly BoundRule[];
  readonly nested: readonly RuleMetadata[];
}

/**
 * A rule with its constraints, looked up once with the grouping (the executor looks them up at every
 * property of every validation). A rule's constraint is registered by its decorator before the rule
 * itself, and a rule added later makes a new grouping (validation-metadata-cache.ts): the list is
 * the one the executor would find.
 */
interface BoundRule {
  readonly rule: RuleMetadata;
  readonly constraints: readonly ConstraintMetadata[];
}

const bound = (rule: RuleMetadata): BoundRule => ({ rule, constraints: storage.getTargetValidatorConstraints(rule.constraintCls) });

const storage = getMetadataStorage() as unknown as Storage;

/** Keyed by the grouping itself: a class loaded later empties the metadata cache (validation-metadata-cache.ts), and with it these. */
const rulesByGrouping = new WeakMap<Record<string, RuleMetadata[]>, readonly PropertyRules[]>();

function rulesOf(grouped: Record<string, RuleMetadata[]>): readonly PropertyRules[] {
  let rules = rulesByGrouping.get(grouped);
  if (rules) return rules;
  rules = Object.keys(grouped).map((name) => {
    const all = grouped[name];
    const others = all.filter((m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST);
    return {
      name,
      defined: all.filter((m) => m.type === ValidationTypes.IS_DEFINED).map(bound),
      conditions: others.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION),
      custom: others.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION).map(bound),
      nested: others.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION),
    };
  });
  rulesByGrouping.set(grouped, rules);
  return rules;
}

function execute(object: object, schema: string | undefined): boolean {
  // The executor's lookup, with its arguments (no groups, not `always`, not strict).
  const grouped = storage.groupByPropertyName(storage.getTargetValidationMetadatas(object.constructor, schema, false, false, undefined));
  const record = object as Record<string, unknown>;
  // whitelist: a property without any rule is removed before the rules run (they may look at the object).
  for (const key of Object.keys(record)) if (!grouped[key] || grouped[key].length === 0) delete record[key];
  for (const rules of rulesOf(grouped)) {
    if (!perform(object, record[rules.name], rules.defined, rules.conditions, rules.custom, rules.nested)) return false;
  }
  return true;
}

function perform(
  object: object,
  value: unknown,
  defined: readonly BoundRule[],
  conditions: readonly RuleMetadata[],
  custom: readonly BoundRule[],
  nested: readonly RuleMetadata[],
): boolean {
  // Every condition is asked (as the executor's map/reduce does); any false skips the property's rules.
  let validate = true;
  for (const condition of conditions) if (!(condition.constraints[0] as (o: object, v: unknown) => boolean)(object, value)) validate = false;
  if (!validate) return true;
  return holds(object, value, defined) && holds(object, value, custom) && nestedHold(value, nested);
}

function holds(object: object, value: unknown, rules: readonly BoundRule[]): boolean {
  if (rules.length === 0) return true;
  const targetName = object.constructor ? object.constructor.name : (undefined as unknown as string);
  for (const { rule, constraints } of rules) {
    for (const constraint of constraints) {
      if (constraint.async) continue;
      const args: ValidationArguments = {
        targetName,
        property: rule.propertyName,
        object,
        value,
        constraints: rule.constraints,
      };
      if (!rule.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
        const valid = constraint.instance.validate(value, args);
        if (!isPromise(valid) && !valid) return false;
        continue;
      }
      const items = value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value);
      const results = items.map((item) => constraint.instance.validate(item, args));
      // One promise among them makes the whole rule async: validateSync never sees its outcome.
      if (results.some(isPromise)) continue;
      if (!results.every(Boolean)) return false;
    }
  }
  return true;
}

function nestedHold(value: unknown, rules: readonly RuleMetadata[]): boolean {
  if (value === undefined) return true;
  for (const rule of rules) {
    if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
      // Each element is validated as a property of the collection with the same nested rules only.
      let valid = true;
      (value as { forEach(each: (item: unknown) => void): void }).forEach((item) => {
        if (valid && !perform(value, item, [], [], [], rules)) valid = false;
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
