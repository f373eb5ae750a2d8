/**
 * Hash routing (`/console#/documents/…`): the page itself is always /console, so a reload or a shared link never
 * asks the server for a client route, and a filter set is in the URL (back and forward work) but never the
 * credential. The gateway still answers `/console/...` with the page, for a link written without the hash.
 */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** The path's segments: `['documents', '<id>']`. */
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, query = ''] = hash.split('?', 2);
  return { segments: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

/** The link of a route: `href('documents', id)`, with a query when given. */
export function href(segments: readonly string[], query?: Readonly<Record<string, string | undefined>>): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value) parameters.set(name, value);
  const text = parameters.toString();
  return `#/${segments.map(encodeURIComponent).join('/')}${text ? `?${text}` : ''}`;
}

export function navigate(to: string): void {
  location.hash = to.replace(/^#/, '');
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
