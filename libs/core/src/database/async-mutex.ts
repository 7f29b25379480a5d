/** A fair FIFO mutex for serialising access to a single-connection backend. */
export class AsyncMutex {
  private locked = false;
  private readonly waiters: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  unlock(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.locked = false;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.lock();
    try {
      return await fn();
    } finally {
      this.unlock();
    }
  }
}
