// How long a dropped socket waits before it reconnects: exponential backoff with full
// jitter. Each wait is a random time between 0 and a ceiling that starts at 1 s and
// doubles with each attempt that fails, up to 30 s, so that the clients a restarted or
// overloaded server dropped together come back spread over the whole ceiling, not in
// waves of their own (a server too busy for a socket closes it with 1013, "try again
// later": socket.js). `reset()` once a connection works again.
const FIRST_MS = 1000;
const MAX_MS = 30000;

export class Backoff {
  /** @param {() => number} [random] A number in [0, 1): Math.random unless a test gives its own. */
  constructor(random = Math.random) {
    this.random = random;
    this.attempt = 0;
  }

  reset() {
    this.attempt = 0;
  }

  // The most the next wait may be.
  ceiling() {
    return Math.min(FIRST_MS * 2 ** this.attempt, MAX_MS);
  }

  next() {
    const delay = this.random() * this.ceiling();
    if (this.ceiling() < MAX_MS) this.attempt += 1;
    return delay;
  }
}
