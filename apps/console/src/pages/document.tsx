/**
 * One document (GET /v1/documents/{id}): what it is, the authority's answer, the Peppol exchange, every event
 * of its timeline, the PDF inline and the files to download (fetched with the credential into blob: URLs: the
 * credential never goes in a URL), its area's own routes, and its actions (document-actions.tsx: cancel, the
 * request as accepted).
 */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, blobUrl, download, getJson, request } from '../api';
import { money, time } from '../format';
import { type DocumentDetail, type SupplierDetail, type TimelineEntry, actionsOf, areaName } from '../model';
import { href } from '../router';
import { ErrorBox, JsonBlock, LoadingLine, State, TimesNote, useLoad, usePageTitle, useRenderedMark } from '../ui';
import { AcceptedRequestPanel, CancelPanel, supplierHeaders } from './document-actions';

export function DocumentPage({ id }: { id: string }) {
  const loaded = useLoad(async () => (await getJson<{ data: DocumentDetail }>(`/v1/documents/${encodeURIComponent(id)}`)).data, id);
  const d = loaded.data;
  usePageTitle(d ? `Document ${d.number}` : 'Document');
  // The document and its timeline are the page's content; its supplier's name and its PDF follow.
  useRenderedMark('document', loaded);
  const supplier = useLoad(async () => (d ? (await getJson<{ data: SupplierDetail }>(`/v1/suppliers/${d.supplier_id}`)).data : undefined), d?.supplier_id ?? '');
  return (
    <section aria-labelledby="document-title">
      <p class="breadcrumb">
        <a href={href(['documents'])}>Documents</a>
      </p>
      <h1 id="document-title">{d ? `Document ${d.number}` : 'Document'}</h1>
      <LoadingLine loading={loaded.loading} label="the document" />
      <ErrorBox error={loaded.error} />
      {d && (
        <>
          <dl class="facts">
            <dt>Area</dt>
            <dd>
              {areaName(d.area)} ({d.area})
            </dd>
            <dt>Type</dt>
            <dd>{d.type}</dd>
            <dt>Direction</dt>
            <dd>{d.direction}</dd>
            <dt>Supplier</dt>
            <dd>
              <a href={href(['suppliers', d.supplier_id])}>{supplier.data?.name ?? d.supplier_id}</a>
            </dd>
            <dt>Issued</dt>
            <dd>{d.issue_date ?? '—'}</dd>
            <dt>Total</dt>
            <dd>{money(d.total, d.currency)}</dd>
            <dt>Status</dt>
            <dd>
              <State value={d.status} />
            </dd>
            <dt>Created</dt>
            <dd>{time(d.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{time(d.updated_at)}</dd>
            <dt>Id</dt>
            <dd>
              <code>{d.id}</code>
            </dd>
          </dl>
          <div class="two-columns">
            <Authority document={d} />
            <Exchange document={d} />
          </div>
          <Timeline entries={d.timeline} />
          {/* Keyed by the document: another one's page starts with an empty form and no outcome. */}
          <CancelPanel key={d.id} document={d} link={actionsOf(d).cancel} supplier={supplier.data} onDone={loaded.reload} />
          <Files document={d} supplier={supplier.data} />
          <AcceptedRequestPanel key={d.id} href={actionsOf(d).request} />
        </>
      )}
      <TimesNote />
    </section>
  );
}

const ofTrack = (entries: readonly TimelineEntry[], track: string) => entries.filter((e) => e.detail.track === track);

function Authority({ document: d }: { document: DocumentDetail }) {
  const steps = ofTrack(d.timeline, 'authority');
  const refusals = steps.filter((e) => typeof e.detail.code === 'string' || typeof e.detail.message === 'string');
  return (
    <section class="panel" aria-labelledby="authority-title">
      <h2 id="authority-title">Authority</h2>
      <p>
        <State value={d.authority.status} label="Authority" />
      </p>
      {d.authority.reference && (
        <p>
          Reference: <code data-authority-reference>{d.authority.reference}</code>
        </p>
      )}
      {refusals.map((e, i) => (
        <div class="answer" key={i}>
          <p>
            <strong>{e.type}</strong> {time(e.at)}
          </p>
          <p>
            <code>{String(e.detail.code ?? '')}</code> {String(e.detail.message ?? '')}
          </p>
          {e.detail.details !== undefined && <JsonBlock value={e.detail.details} label="What the authority answered" />}
        </div>
      ))}
      {d.authority.status === 'none' && <p class="note">This area reports to no authority.</p>}
    </section>
  );
}

function Exchange({ document: d }: { document: DocumentDetail }) {
  const steps = ofTrack(d.timeline, 'exchange');
  const withMls = steps.filter((e) => e.detail.mls);
  return (
    <section class="panel" aria-labelledby="exchange-title">
      <h2 id="exchange-title">Exchange (Peppol)</h2>
      <p>
        <State value={d.exchange.status} label="Exchange" />
      </p>
      {withMls.map((e, i) => {
        const mls = e.detail.mls as Record<string, unknown>;
        return (
          <p key={i}>
            Message Level Status: <code data-mls>{String(mls.responseCode ?? '')}</code> {mls.receivedAt ? `(${time(String(mls.receivedAt))})` : ''}
            {mls.description ? ` ${String(mls.description)}` : ''}
          </p>
        );
      })}
      {d.exchange.status === 'none' && <p class="note">This document travels over no Peppol network.</p>}
    </section>
  );
}

function Timeline({ entries }: { entries: readonly TimelineEntry[] }) {
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <ol class="timeline">
        {entries.map((e, i) => (
          <li key={i}>
            <time dateTime={e.at}>{time(e.at)}</time> <strong class="step">{e.type}</strong> <span class="sub">{String(e.detail.track ?? '')}</span>
            <Details detail={e.detail} />
          </li>
        ))}
      </ol>
      {entries.length === 0 && <p class="note">Nothing has happened to it yet.</p>}
    </section>
  );
}

function Details({ detail }: { detail: Readonly<Record<string, unknown>> }) {
  const shown = Object.entries(detail).filter(([name, value]) => name !== 'track' && value !== null && value !== undefined);
  if (!shown.length) return null;
  return (
    <dl class="detail">
      {shown.map(([name, value]) => (
        <Fragment key={name}>
          <dt>{name}</dt>
          <dd>{typeof value === 'object' ? <code>{JSON.stringify(value)}</code> : String(value)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function Files({ document: d, supplier }: { document: DocumentDetail; supplier: SupplierDetail | undefined }) {
  const links = d.links;
  const [pdf, setPdf] = useState<{ url?: string; error?: unknown; loading: boolean }>({ loading: Boolean(links?.pdf) });
  const [failure, setFailure] = useState<unknown>();
  const [record, setRecord] = useState<unknown>();
  useEffect(() => {
    if (!links?.pdf) return;
    let url: string | undefined;
    let live = true;
    blobUrl(links.pdf, 'application/pdf').then(
      (made) => (live ? setPdf({ url: (url = made), loading: false }) : URL.revokeObjectURL(made)),
      (error) => live && setPdf({ error, loading: false }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [links?.pdf]);
  const save = (path: string, name: string, accept: string, headers?: Record<string, string>) => {
    setFailure(undefined);
    download(path, name, accept, headers).catch(setFailure);
  };
  const readRecord = async () => {
    setFailure(undefined);
    try {
      setRecord(await (await request('GET', links!.document, { headers: supplierHeaders(d, supplier) })).json());
    } catch (error) {
      setFailure(error instanceof ApiError ? error : new ApiError(0, String(error), null));
    }
  };
  return (
    <section aria-labelledby="files-title">
      <h2 id="files-title">Files and links</h2>
      <div class="actions">
        {links?.pdf && (
          <button type="button" onClick={() => save(links.pdf!, `${d.number}.pdf`, 'application/pdf')}>
            Download PDF
          </button>
        )}
        {links?.xml && (
          <button type="button" onClick={() => save(links.xml!, `${d.number}.xml`, 'application/xml, application/json, */*', supplierHeaders(d, supplier))}>
            Download XML
          </button>
        )}
        {links?.document && (
          <button type="button" class="secondary" onClick={readRecord}>
            Read its area's record
          </button>
        )}
      </div>
      <ErrorBox error={failure} />
      {links && (
        <ul class="links">
          {Object.entries(links)
            // The paths; `cancel`, a form, is the Actions panel's.
            .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
            .map(([name, value]) => (
              <li key={name}>
                {name}: <code>{value}</code>
              </li>
            ))}
        </ul>
      )}
      {record !== undefined && <JsonBlock value={record} label="The document as its area's route answers it" />}
      {links?.pdf && (
        <div class="pdf-frame">
          <LoadingLine loading={pdf.loading} label="the PDF" />
          <ErrorBox error={pdf.error} />
          {pdf.url && <iframe src={pdf.url} title={`PDF of document ${d.number}`} />}
        </div>
      )}
      {!links?.pdf && <p class="note">Documents of this area have no printed view yet.</p>}
    </section>
  );
}
