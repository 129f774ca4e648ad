/**
 * Per-key async mutex: tasks with the same key run one after another, in arrival order. Refunds of one
 * transaction go through it, so no interleaving of concurrent requests can exceed the amount even when
 * the check and the write are separated by an await.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // Forget the key once nothing else queued behind us, so the map does not grow forever.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Number of keys with queued or running work (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
