// How long a dropped socket waits before it reconnects: 1 s, then twice as long each time
// up to 30 s, each wait ±25% at random, so a restarted server is not hit by every client
// in the same instant. `reset()` once a connection works again.
const FIRST_MS = 1000;
const MAX_MS = 30000;

export class Backoff {
  constructor() {
    this.ms = FIRST_MS;
  }

  reset() {
    this.ms = FIRST_MS;
  }

  next() {
    const delay = this.ms * (0.75 + Math.random() * 0.5);
    this.ms = Math.min(this.ms * 2, MAX_MS);
    return delay;
  }
}
