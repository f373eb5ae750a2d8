/**
 * The areas a deployment serves, by code, with their names for people, in the list's order
 * (area-list.ts; the test suite's own areas aside). This file imports nothing, so that a browser
 * bundle takes the areas from here without the server code a definition brings: the web console's
 * filters (#50, apps/console/src/model.ts), and the OpenAPI descriptions that name the codes.
 * `registeredAreas` refuses to load when the list's areas are not exactly these, in this order, with
 * these names: adding an area is its line in area-list.ts and its line here.
 */
export const AREA_NAMES = {
  be: 'Belgium',
  de: 'Germany',
  sg: 'Singapore',
  my: 'Malaysia',
  ae: 'United Arab Emirates',
  es: 'Spain',
  pl: 'Poland',
  jo: 'Jordan',
  ng: 'Nigeria',
  ar: 'Argentina',
} as const satisfies Readonly<Record<string, string>>;

/** An area's code (`be`, `my`). */
export type AreaCode = keyof typeof AREA_NAMES;

/** The codes, in the list's order. */
export const AREA_CODES = Object.keys(AREA_NAMES) as readonly AreaCode[];
