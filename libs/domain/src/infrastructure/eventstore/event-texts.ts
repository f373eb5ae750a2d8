/**
 * The data of an event as its unit of work wrote it (JSON text): what the unit's process hands its
 * own relay as it commits, so that the relay need not ask PostgreSQL for it again.
 */
export interface EventText {
  readonly eventId: string;
  readonly text: string;
}

/**
 * A relay that its process's units of work hand their event texts to as they commit (OutboxRelay, the
 * RelayThread of an app). Both halves come from the one relay: a row that named a relay which was never
 * handed its text would send every read of it to the second query (outbox-rows.ts).
 */
export interface EventTextsHolder {
  /** Keeps, while it leads, the data texts of the events a unit is about to commit. */
  keepTexts(texts: readonly EventText[]): void;
  /** The name a unit's outbox rows give it while it leads (`outbox.handed_to`); undefined otherwise. */
  textsHandedTo(): string | undefined;
}

export interface EventTextLimits {
  /** Texts kept at most (default 2,000); the oldest go first. */
  readonly maxEntries?: number;
  /** Characters kept at most, all texts together (default 32 Mi). */
  readonly maxChars?: number;
  /** A text not asked for within this long is dropped (default 2 s): its unit of work rolled back, or its row was read before the text came. */
  readonly maxAgeMs?: number;
}

/**
 * The data texts of this process's events whose outbox rows its relay has not read yet (issue 11).
 * Turning a stored jsonb back into text was two thirds of the relay's read, PostgreSQL's costliest
 * statement under the submission load (~52 µs of a 1.5 ms read of 21 submissions here); the unit of
 * work that wrote the event had the text already. The texts come as their unit commits, not after:
 * a relay that drains all the time reads a row as soon as it is committed, and texts sent after the
 * commit arrived after that read for 95% of the rows. A text is only ever used for a row PostgreSQL
 * returns, so one whose unit rolled back is never used, and ages out. A cache, never the source of
 * truth: a row whose text is missing (evicted, another process's event, a relay restarted) is read
 * from PostgreSQL as before, and what is kept is bounded whatever the relay does. Which rows' texts
 * were handed over the rows say themselves (`outbox.handed_to`: the relay's `textsHolder`); a read
 * that named the events whose texts it held missed each row committed while it was on its way.
 */
export class KnownEventTexts {
  private readonly texts = new Map<string, { readonly text: string; readonly at: number }>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly maxAgeMs: number;

  constructor(
    limits: EventTextLimits = {},
    private readonly now: () => number = Date.now,
  ) {
    this.maxEntries = limits.maxEntries ?? 2_000;
    this.maxChars = limits.maxChars ?? 32 * 1024 * 1024;
    this.maxAgeMs = limits.maxAgeMs ?? 2_000;
  }

  get size(): number {
    return this.texts.size;
  }

  add(texts: readonly EventText[]): void {
    const at = this.now();
    for (const { eventId, text } of texts) {
      this.drop(eventId);
      this.texts.set(eventId, { text, at });
      this.chars += text.length;
    }
    this.evict(at);
  }

  /** The text of an event, unless it was never handed over or is gone (evicted, too old). */
  get(eventId: string): string | undefined {
    this.evict(this.now());
    return this.texts.get(eventId)?.text;
  }

  /** Forgets the texts of events whose rows were read (used or not, they are not asked for again). */
  forget(eventIds: Iterable<string>): void {
    for (const eventId of eventIds) this.drop(eventId);
  }

  private drop(eventId: string): void {
    const kept = this.texts.get(eventId);
    if (!kept) return;
    this.texts.delete(eventId);
    this.chars -= kept.text.length;
  }

  /** Oldest first (a Map iterates in insertion order): beyond the bounds, or older than maxAgeMs. */
  private evict(now: number): void {
    for (const [eventId, { at }] of this.texts) {
      if (this.texts.size <= this.maxEntries && this.chars <= this.maxChars && now - at <= this.maxAgeMs) return;
      this.drop(eventId);
    }
  }
}
