import { getMetadataStorage } from 'class-validator';

type Lookup = (target: unknown, schema: string | undefined, always: boolean, strictGroups: boolean, groups?: string[]) => unknown[];

interface Storage {
  getTargetValidationMetadatas: Lookup;
  groupByPropertyName(metadata: unknown[]): Record<string, unknown[]>;
  addValidationMetadata(metadata: unknown): void;
}

const memoised = Symbol.for('einvoice.validationMetadataMemoised');

/**
 * class-validator finds a class's rules, on every validation of every (nested) object, by testing
 * every decorated class of the process for being an ancestor (MetadataStorage
 * .getTargetValidationMetadatas, an open issue upstream: typestack/class-validator#2686). With every
 * area's DTOs loaded that scan was the gateway's largest class-validator frame (0.6 s of 48 s under
 * `BENCH_CPU_PROF=gateway BENCH_PHASES=accept`, 43 µs a request). A class's rules are registered by
 * its decorators when its module loads, before anything can be validated against it, so the answer
 * is kept per class and arguments; a rule added later (a class loaded later) empties the cache.
 * Installed once per process, on class-validator's global storage.
 */
export function memoiseValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage & { [memoised]?: true };
  if (storage[memoised]) return;
  storage[memoised] = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let byTarget = new WeakMap<object, Map<string, unknown[]>>();
  // The question every validation asks (no schema, no groups), by class and then by its two flags:
  // no key to build, then hash, per object validated (the key was ~6% of validating an invoice).
  let plainByTarget = new WeakMap<object, unknown[][]>();
  storage.addValidationMetadata = (metadata) => {
    byTarget = new WeakMap();
    plainByTarget = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    if (schema === undefined && !groups?.length) {
      let answers = plainByTarget.get(target);
      if (!answers) plainByTarget.set(target, (answers = []));
      const slot = (always ? 2 : 0) + (strictGroups ? 1 : 0);
      return (answers[slot] ??= lookup(target, schema, always, strictGroups, groups));
    }
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let answers = byTarget.get(target);
    if (!answers) byTarget.set(target, (answers = new Map()));
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = lookup(target, schema, always, strictGroups, groups)));
    return answer;
  };
  // The executor then groups that answer by property, again on every validation of every object: the
  // grouping of a kept answer is kept with it (the executor only reads it).
  const group = storage.groupByPropertyName.bind(storage);
  const grouped = new WeakMap<unknown[], Record<string, unknown[]>>();
  storage.groupByPropertyName = (metadata) => {
    let answer = grouped.get(metadata);
    if (!answer) grouped.set(metadata, (answer = group(metadata)));
    return answer;
  };
}
