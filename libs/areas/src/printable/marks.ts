/**
 * The regimes' marks as the renderers print them (#49): a document its authority has not accepted (yet)
 * says so where the mark goes, in the document's languages, never a blank or a made-up code.
 */
import type { PrintableLanguage, PrintableMark } from '../registry/printable';
import { labelsOf } from './labels';

/** "Not yet authorised by the tax authority", in each language, and what the authority's state is. */
export function pendingMark(languages: readonly PrintableLanguage[], state?: string | null): PrintableMark {
  return { kind: 'pending', text: [...labelsOf('notAuthorised', languages).map((l) => l.text), ...(state ? [`(${state})`] : [])] };
}
