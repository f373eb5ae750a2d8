/**
 * Where the MyInvois sandbox keeps what MyInvois itself would keep: tokens, submissions,
 * documents and the DV302 duplicate-key index. MyInvois is one service shared by every caller, so
 * the processes of a stack (gateway, reporting workers, a restarted worker) share one state:
 * {@link PostgresSandboxState} (`sandbox-state-postgres.ts`). {@link InMemorySandboxState} is for
 * unit tests and the test fake. The sandbox's rules live in `sandbox.ts`; a state only stores,
 * and makes the two races of a shared MyInvois atomic: claiming a DV302 key (one winner) and
 * changing a document (compare-and-set on `version`, so a transition happens once).
 */
import { AccessToken, DocumentStatus, DocumentSummary } from './connector';

/** A document as MyInvois holds it. */
export interface SandboxDocument {
  /** What Get Submission / Get Recent Documents show of it. */
  readonly summary: DocumentSummary;
  /** DV302 duplicate key (document-fields.ts `duplicateKey`). */
  readonly key: string;
  /** Epoch ms from which a poll may validate it. */
  readonly validatesAt: number;
  /** Sandbox convention: internal ids containing `INVALID` end up Invalid. */
  readonly becomesValid: boolean;
  /** Polled at least once (documents are `Submitted` on the first poll). */
  readonly polled: boolean;
  /** Bumped by every change of `summary`: the compare-and-set of {@link SandboxState.replaceDocument}. */
  readonly version: number;
}

/** A submission as MyInvois holds it; its documents are those stored with its uid, in order. */
export interface SandboxSubmission {
  readonly submissionUid: string;
  /** The client id that submitted it: only that client may read it. */
  readonly clientId: string;
  /** ISO instant the submission was received. */
  readonly dateTimeReceived: string;
}

/** Which documents Get Recent Documents lists, newest submission first, then in submission order. */
export interface RecentFilter {
  /** Sent: documents of this client id's submissions. */
  readonly clientId?: string;
  /** Received: validated documents whose receiver (buyer TIN) is this TIN. */
  readonly receiverTin?: string;
  /** Epoch ms bounds (inclusive) of the submission's receipt. */
  readonly receivedFrom?: number;
  readonly receivedTo?: number;
  readonly status?: DocumentStatus;
  readonly offset: number;
  readonly limit: number;
}

/** Outcome of storing a document: stored, or its DV302 key is held by the document `duplicateOf`. */
export type AddDocumentOutcome = { readonly stored: true } | { readonly duplicateOf: string };

export interface SandboxState {
  /** Stores an issued token; may prune tokens that expired by `now`. */
  saveToken(token: AccessToken, now: number): Promise<void>;
  findToken(accessToken: string): Promise<AccessToken | undefined>;
  /** Stores a submission before its documents, so a document never exists without one. */
  saveSubmission(submission: SandboxSubmission): Promise<void>;
  findSubmission(submissionUid: string): Promise<SandboxSubmission | undefined>;
  /**
   * Stores a document of a submission (after the ones stored before: order is kept). With
   * `claimKey`, atomically claims its DV302 key first: when another document holds the key, nothing
   * is stored and that document's uuid comes back. Of concurrent claims of one key exactly one wins.
   */
  addDocument(document: Omit<SandboxDocument, 'version'>, claimKey: boolean): Promise<AddDocumentOutcome>;
  /**
   * addDocument for each of a submission's documents, in order, in one step where the store can (one
   * statement: one commit per submission, as the authority takes a submission at once): a key claimed
   * twice in the list is held by the first. The outcomes in the list's order.
   */
  addDocuments(documents: ReadonlyArray<{ readonly document: Omit<SandboxDocument, 'version'>; readonly claimKey: boolean }>): Promise<AddDocumentOutcome[]>;
  submissionDocuments(submissionUid: string): Promise<SandboxDocument[]>;
  findDocument(uuid: string): Promise<SandboxDocument | undefined>;
  /** Marks every document of the submission polled (monotonic: no version change). */
  markPolled(submissionUid: string): Promise<void>;
  /**
   * Replaces a document's summary if its version is still `expectedVersion` (then bumps it);
   * false when another change came first (re-read and decide again). `releaseKey` frees the
   * document's DV302 key in the same step (a cancelled document no longer blocks its key).
   */
  replaceDocument(uuid: string, expectedVersion: number, summary: DocumentSummary, options?: { releaseKey?: boolean }): Promise<boolean>;
  /** replaceDocument for several documents in one step where the store can (a poll's verdicts); the uuids changed. */
  replaceDocuments(changes: ReadonlyArray<{ readonly uuid: string; readonly expectedVersion: number; readonly summary: DocumentSummary }>): Promise<ReadonlySet<string>>;
  /** One page of Get Recent Documents and the count of all matching documents. */
  recentDocuments(filter: RecentFilter): Promise<{ documents: DocumentSummary[]; totalCount: number }>;
}

/**
 * The state in this process's memory: what one process alone sees (unit tests, the test fake).
 * Every method completes synchronously, so nothing interleaves inside one call.
 */
export class InMemorySandboxState implements SandboxState {
  private readonly tokens = new Map<string, AccessToken>();
  private readonly submissions = new Map<string, SandboxSubmission & { uuids: string[] }>();
  private readonly documents = new Map<string, SandboxDocument>();
  /** DV302 index: duplicate key → uuid of the document holding it. */
  private readonly byKey = new Map<string, string>();

  async saveToken(token: AccessToken): Promise<void> {
    this.tokens.set(token.accessToken, token);
  }

  async findToken(accessToken: string): Promise<AccessToken | undefined> {
    return this.tokens.get(accessToken);
  }

  async saveSubmission(submission: SandboxSubmission): Promise<void> {
    this.submissions.set(submission.submissionUid, { ...submission, uuids: [] });
  }

  async findSubmission(submissionUid: string): Promise<SandboxSubmission | undefined> {
    const found = this.submissions.get(submissionUid);
    return found && { submissionUid: found.submissionUid, clientId: found.clientId, dateTimeReceived: found.dateTimeReceived };
  }

  async addDocument(document: Omit<SandboxDocument, 'version'>, claimKey: boolean): Promise<AddDocumentOutcome> {
    const holder = claimKey ? this.byKey.get(document.key) : undefined;
    if (holder) return { duplicateOf: holder };
    if (claimKey) this.byKey.set(document.key, document.summary.uuid);
    this.documents.set(document.summary.uuid, { ...document, version: 0 });
    this.submissions.get(document.summary.submissionUid)?.uuids.push(document.summary.uuid);
    return { stored: true };
  }

  async addDocuments(documents: ReadonlyArray<{ readonly document: Omit<SandboxDocument, 'version'>; readonly claimKey: boolean }>): Promise<AddDocumentOutcome[]> {
    const outcomes: AddDocumentOutcome[] = [];
    for (const { document, claimKey } of documents) outcomes.push(await this.addDocument(document, claimKey));
    return outcomes;
  }

  async submissionDocuments(submissionUid: string): Promise<SandboxDocument[]> {
    return (this.submissions.get(submissionUid)?.uuids ?? []).map((uuid) => this.documents.get(uuid) as SandboxDocument);
  }

  async findDocument(uuid: string): Promise<SandboxDocument | undefined> {
    return this.documents.get(uuid);
  }

  async markPolled(submissionUid: string): Promise<void> {
    for (const uuid of this.submissions.get(submissionUid)?.uuids ?? []) {
      this.documents.set(uuid, { ...(this.documents.get(uuid) as SandboxDocument), polled: true });
    }
  }

  async replaceDocument(uuid: string, expectedVersion: number, summary: DocumentSummary, options: { releaseKey?: boolean } = {}): Promise<boolean> {
    const current = this.documents.get(uuid);
    if (!current || current.version !== expectedVersion) return false;
    this.documents.set(uuid, { ...current, summary, version: current.version + 1 });
    if (options.releaseKey && this.byKey.get(current.key) === uuid) this.byKey.delete(current.key);
    return true;
  }

  async replaceDocuments(changes: ReadonlyArray<{ readonly uuid: string; readonly expectedVersion: number; readonly summary: DocumentSummary }>): Promise<ReadonlySet<string>> {
    const changed = new Set<string>();
    for (const { uuid, expectedVersion, summary } of changes) if (await this.replaceDocument(uuid, expectedVersion, summary)) changed.add(uuid);
    return changed;
  }

  async recentDocuments(filter: RecentFilter): Promise<{ documents: DocumentSummary[]; totalCount: number }> {
    const from = filter.receivedFrom ?? -Infinity;
    const to = filter.receivedTo ?? Infinity;
    const all = [...this.submissions.values()]
      .filter((s) => (filter.clientId === undefined || s.clientId === filter.clientId) && Date.parse(s.dateTimeReceived) >= from && Date.parse(s.dateTimeReceived) <= to)
      .reverse()
      .flatMap((s) => s.uuids.map((uuid) => (this.documents.get(uuid) as SandboxDocument).summary))
      .filter((d) => filter.receiverTin === undefined || (d.receiverId === filter.receiverTin && !!d.dateTimeValidated))
      .filter((d) => !filter.status || d.status === filter.status);
    return { documents: all.slice(filter.offset, filter.offset + filter.limit), totalCount: all.length };
  }
}
