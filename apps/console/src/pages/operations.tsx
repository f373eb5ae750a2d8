/**
 * Operations (#50): what an operator on call looks at, from the operator API (`/v1/operations/...`, an
 * operator's key only; the nav offers this page to an operator's session alone, and the API refuses an
 * account's key with 403 whatever the page does). A first view: each route's answer as it comes; tables and
 * the actions (replay a dead letter, release a parked outbox row) belong here.
 */
import { getJson } from '../api';
import { ErrorBox, JsonBlock, LoadingLine, TimesNote, useLoad, usePageTitle } from '../ui';

const VIEWS: ReadonlyArray<readonly [path: string, title: string]> = [
  ['/v1/operations/dead-letters', 'Dead letters'],
  ['/v1/operations/stuck-documents', 'Documents not final'],
  ['/v1/operations/outbox/parked', 'Parked outbox rows'],
  ['/v1/operations/consumer-lag', 'Consumer lag'],
  ['/v1/operations/authority-errors', 'Authority error rates'],
];

export function OperationsPage() {
  usePageTitle('Operations');
  return (
    <section aria-labelledby="operations-title">
      <h1 id="operations-title">Operations</h1>
      {VIEWS.map(([path, title]) => (
        <OperationsView key={path} path={path} title={title} />
      ))}
      <TimesNote />
    </section>
  );
}

function OperationsView({ path, title }: { path: string; title: string }) {
  const loaded = useLoad(() => getJson<unknown>(path), path);
  const id = `ops-${path.replace(/\W+/g, '-')}`;
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <LoadingLine loading={loaded.loading} label={title.toLowerCase()} />
      <ErrorBox error={loaded.error} />
      {loaded.data !== undefined && <JsonBlock value={loaded.data} label={title} />}
    </section>
  );
}
