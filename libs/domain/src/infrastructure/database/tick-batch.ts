/**
 * Questions asked in the same turn of the event loop, answered by one call of `load` for all of them
 * (the DataLoader pattern). A worker's concurrent handlers each asking PostgreSQL one small question
 * paid a round trip each (~0.2 ms of client CPU whatever it carries, issue 11); asked together, one.
 * `load` answers the questions in their order. If it fails for several, each is asked again alone,
 * so one bad question fails only its own caller.
 */
export class TickBatch<Q, A> {
  private pending: Array<{ readonly question: Q; readonly resolve: (answer: A) => void; readonly reject: (error: unknown) => void }> = [];

  constructor(
    private readonly load: (questions: readonly Q[]) => Promise<readonly A[]>,
    private readonly maxBatch = 256,
  ) {}

  ask(question: Q): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.pending.push({ question, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
      else if (this.pending.length >= this.maxBatch) this.flush();
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.answer(batch).catch((error: unknown) => {
      if (batch.length === 1) return batch[0].reject(error);
      for (const one of batch) this.answer([one]).catch(one.reject);
    });
  }

  private async answer(batch: typeof this.pending): Promise<void> {
    const answers = await this.load(batch.map((one) => one.question));
    if (answers.length !== batch.length) throw new Error(`TickBatch: ${answers.length} answers for ${batch.length} questions`);
    batch.forEach((one, i) => one.resolve(answers[i]));
  }
}
