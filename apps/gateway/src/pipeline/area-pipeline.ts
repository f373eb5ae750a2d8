import { Injectable } from '@nestjs/common';
import { type ParsedDocument, areaOf } from '@einvoice/areas';
import type { Answer } from '../http/answer';
import type { RequestContext } from '../http/request-context';
import { Connections } from '../infrastructure/infrastructure.module';
import { Mailer } from '../mail/mailer';
import { SupplierCache } from '../suppliers/supplier-lookup';
import { codecs, presented } from './area-codecs';
import { AreaConnectors } from './area-connectors';
import { AuthorityRequests } from './authority-requests';
import { DocumentRows, view } from './document-rows';
import { DocumentShares } from './document-shares';
import { IssuerChains } from './issuer-chain';
import { Onboarding } from './onboarding';
import { OutcomeWaiter } from './outcome-waiter';
import { type OnAccepted, Submissions } from './submission';

/**
 * The one submission path every area's thin controller calls (area registry `onboarding`,
 * `documents`, `authority`): onboarding, submission, the requests to the authority about a document,
 * and the reads, each in its module of this folder. Everything here is per area by `code`, the
 * registry's; nothing names an area.
 */
@Injectable()
export class AreaPipeline {
  private readonly onboarding: Onboarding;
  private readonly connectors: AreaConnectors;
  private readonly submissions: Submissions;
  private readonly requests: AuthorityRequests;
  private readonly rows: DocumentRows;
  private readonly shares: DocumentShares;
  /** One cache for every route: a supplier found by one is found by the next. */
  private readonly suppliers = new SupplierCache();

  constructor(
    private readonly connections: Connections,
    outcomes: OutcomeWaiter,
    mailer: Mailer,
  ) {
    const waitMs = Number(process.env.AUTHORITY_WAIT_MS ?? 5_000);
    this.rows = new DocumentRows(connections, this.suppliers);
    this.connectors = new AreaConnectors(connections);
    this.onboarding = new Onboarding(connections, this.connectors);
    this.submissions = new Submissions(connections, this.suppliers, this.rows, new IssuerChains(connections), outcomes, waitMs);
    this.requests = new AuthorityRequests(connections, this.rows, outcomes, waitMs);
    this.shares = new DocumentShares(connections, this.rows, mailer);
  }

  /** `POST …/onboard`: 201 with the supplier's id (or the area's own answer, `onboarding.respond`). */
  onboard(code: string, body: unknown, context: RequestContext) {
    return this.onboarding.onboard(code, body, context);
  }

  /**
   * Submits a document (`variant` names the route where the area takes several kinds of body);
   * `onAccepted` is the caller's own step in the submission's transaction.
   */
  submit(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext, variant?: string, onAccepted?: OnAccepted): Promise<Answer> {
    return this.submissions.submit(code, supplierRef, body, context, variant, onAccepted);
  }

  /** Checks a document as `submit` would, filing nothing: records `answer`'s answer and the caller's step (`Submissions.check`). */
  check(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext, answer: (parsed: ParsedDocument) => Answer, variant?: string, onAccepted?: OnAccepted): Promise<Answer> {
    return this.submissions.check(code, supplierRef, body, context, answer, variant, onAccepted);
  }

  /** Asks the authority to cancel a reported document. */
  cancel(code: string, supplierRef: string | undefined, id: string, body: unknown, context: RequestContext): Promise<Answer> {
    return this.requests.cancel(code, supplierRef, id, body, context);
  }

  /** Asks the authority to make `change` to an accepted document (its connector's `amend`; Nigeria's payment status). */
  amend(code: string, supplierRef: string | undefined, id: string, change: Readonly<Record<string, unknown>>, context: RequestContext): Promise<Answer> {
    return this.requests.amend(code, supplierRef, id, change, context);
  }

  /** A read from the authority for the supplier (connector `read`), outside any transaction. */
  async askAuthority(code: string, supplierRef: string | undefined, name: string, params: Readonly<Record<string, unknown>>, context: RequestContext): Promise<unknown> {
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef);
    return this.connectors.read(areaOf(code), { id: supplier.id, profile: supplier.profile }, name, params);
  }

  /** One document as the area shows it (`documents.present`, `variant` naming the route). */
  async document(code: string, supplierRef: string | undefined, id: string, context: RequestContext, variant?: string) {
    const row = await this.rows.own(code, supplierRef, id, context);
    return presented(codecs(areaOf(code)).documents, view(row), variant);
  }

  /** The Peppol copy's UBL its report asked for, released or not (MyInvois's `documents/{id}/peppol`); 404 without one. */
  async peppolCopyFile(code: string, supplierRef: string | undefined, id: string, context: RequestContext): Promise<string> {
    return this.rows.peppolCopy(code, await this.rows.own(code, supplierRef, id, context));
  }

  /** The document exactly as rendered and sent to the authority (Poland: the FA(3) XML). */
  async documentFile(code: string, supplierRef: string | undefined, id: string, context: RequestContext): Promise<{ bytes: string; mediaType: string }> {
    return this.rows.file(await this.rows.own(code, supplierRef, id, context));
  }

  /** Mails an access code to one document (DocumentShares). */
  shareDocument(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext) {
    return this.shares.share(code, supplierRef, body, context);
  }

  /** The document an access code opens, as the area shows it (no API key: the code is the credential). */
  async sharedDocument(code: string, accessCode: string, variant?: string) {
    const row = await this.shares.open(code, accessCode);
    return presented(codecs(areaOf(code)).documents, view(row), variant);
  }

  /** The file an access code opens (Poland: the FA(3) XML as sent). */
  async sharedFile(code: string, accessCode: string): Promise<{ bytes: string; mediaType: string }> {
    return this.rows.file(await this.shares.open(code, accessCode));
  }
}
