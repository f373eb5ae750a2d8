import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { AppError, issue } from '@einvoice/domain';

/**
 * Headers read by the name the seeds spell them. A name with an underscore (`supplier_uuid`,
 * `transport_mode`) also answers to its hyphenated form (`supplier-uuid`, `transport-mode`): proxies
 * such as nginx drop underscored headers by default (`underscores_in_headers off`), so a client behind
 * one could not send the seed's spelling at all (README "The API's manners").
 */
type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

/** The names a header answers to: the seed's (lower-cased, as Node keeps them), then its hyphenated form if it differs. */
export function headerForms(seedName: string): readonly string[] {
  const seed = seedName.toLowerCase();
  const hyphenated = seed.replace(/_/g, '-');
  return hyphenated === seed ? [seed] : [seed, hyphenated];
}

/**
 * A header's value by its seed name, whichever form was sent; undefined when neither was (an empty
 * value counts as not sent). Both forms with different values: a 400 naming both, as neither can be
 * told to be the one meant.
 */
export function seedHeader(headers: HeaderBag, seedName: string): string | undefined {
  const sent = headerForms(seedName)
    .map((form) => ({ form, value: firstValue(headers[form]) }))
    .filter((h): h is { form: string; value: string } => h.value !== undefined && h.value !== '');
  const [one, other] = sent;
  if (one && other && one.value !== other.value) {
    const message = `Both ${one.form} and ${other.form} were sent, with different values: send one of them.`;
    throw new AppError('validation', 'HEADER.CONFLICT', message, {
      issues: [one, other].map((h, i) => issue(`headers.${h.form}`, 'HEADER.CONFLICT', `${h.form} differs from ${[one, other][1 - i].form}: they are one header; send one form.`)),
    });
  }
  return one?.value;
}

/** Node gives a header sent twice as one joined string, except a few as arrays: the first then. */
function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `@SeedHeader('supplier_uuid')`: the header's value by its seed name (`seedHeader`), in either form. */
export const SeedHeader = createParamDecorator((seedName: string, context: ExecutionContext): string | undefined =>
  seedHeader(context.switchToHttp().getRequest<{ headers: HeaderBag }>().headers, seedName),
);
