import 'reflect-metadata';
import { IsString, MaxLength, getMetadataStorage, validateSync } from 'class-validator';
import { memoiseValidationMetadata } from './validation-metadata-cache';

class Party {
  @IsString()
  Name!: string;
}

class Supplier extends Party {
  @MaxLength(3)
  Code!: string;
}

const build = <T extends object>(cls: new () => T, fields: Record<string, unknown>): T => Object.assign(new cls(), fields);
const failed = (object: object) => validateSync(object).map((error) => `${error.property}:${Object.keys(error.constraints ?? {}).join(',')}`);

describe('memoiseValidationMetadata', () => {
  beforeAll(() => memoiseValidationMetadata());

  it('answers a class with the same rules as before, inherited ones included, and keeps the answer', () => {
    expect(failed(build(Supplier, { Name: 1, Code: 'ABCD' }))).toEqual(['Code:maxLength', 'Name:isString']);
    expect(failed(build(Supplier, { Name: 'x', Code: 'ABC' }))).toEqual([]);
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Supplier, '', false, false);
    expect(storage.getTargetValidationMetadatas(Supplier, '', false, false)).toBe(first);
    expect(first).toHaveLength(2);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(Object.keys(storage.groupByPropertyName(first)).sort()).toEqual(['Code', 'Name']);
  });

  it('#11 keeps the plain question (no schema, no groups) apart per flag, and apart from a question with groups', () => {
    class Grouped {
      @IsString({ groups: ['draft'] })
      Note!: string;

      @IsString()
      Name!: string;
    }
    const storage = getMetadataStorage();
    const count = (strictGroups: boolean, groups?: string[]) => storage.getTargetValidationMetadatas(Grouped, undefined as unknown as string, false, strictGroups, groups).length;
    // Strict groups leave the grouped rule out of a question without groups; otherwise every rule counts.
    expect([count(true), count(false), count(true), count(false)]).toEqual([1, 2, 1, 2]);
    expect(count(true, ['draft'])).toBe(1);
    expect(count(false, ['other'])).toBe(0);
    expect(storage.getTargetValidationMetadatas(Grouped, undefined as unknown as string, false, true)).toBe(storage.getTargetValidationMetadatas(Grouped, undefined as unknown as string, false, true, []));
  });

  it('is installed once however often it is called', () => {
    const lookup = getMetadataStorage().getTargetValidationMetadatas;
    memoiseValidationMetadata();
    expect(getMetadataStorage().getTargetValidationMetadatas).toBe(lookup);
  });

  it('sees rules registered after a lookup (a class loaded later, a subclass of one already looked up)', () => {
    expect(failed(build(Party, { Name: 'x' }))).toEqual([]);
    class Buyer extends Party {
      @IsString()
      VatId!: string;
    }
    expect(failed(build(Buyer, { Name: 2, VatId: 3 }))).toEqual(['VatId:isString', 'Name:isString']);
    expect(failed(build(Party, { Name: 2 }))).toEqual(['Name:isString']);
  });
});
