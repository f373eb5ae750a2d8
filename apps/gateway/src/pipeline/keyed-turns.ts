/**
 * Runs work one at a time per key, in arrival order, within this process (a queue per key, gone when
 * empty). The gateway takes turns per issuer's chain: requests of one issuer that all read the chain
 * at once would all but one lose the append and read again.
 */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<void>>();

  async inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
