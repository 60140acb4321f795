// A room's event log as one page holds it: the latest events it has read, and how far it
// is known to be whole. Events reach it two ways: fetched (`events?after=` the last one
// read, page after page) and pushed on the room's socket with each change (the events the
// change logged, with the room's `seq` before and after it). A pushed batch joins the log
// only where the log is whole up to the batch's `after`; a batch that does not is held
// back until a fetch fills the gap, and then joins if it can.
//
// The room's `seq` counts every event of the room, this reader's and others' private ones
// alike, so the last event read says little of how far the log is whole: a pass between
// two others is logged for them alone. What says it is where the room stood when a fetch
// began (all that was logged by then is in its answer) and each joined batch's `seq`.

const HELD = 50;

/**
 * @typedef {{ seq: number } & Record<string, any>} LoggedEvent
 * @typedef {{ after: number, seq: number, events: LoggedEvent[] }} Batch
 */

export class EventLog {
  /** @param {number} keep How many of the latest events are kept (older ones are let go). */
  constructor(keep) {
    this.keep = keep;
    /** @type {LoggedEvent[]} */
    this.events = [];
    // The last event read: where the next fetch reads on from.
    this.lastSeq = 0;
    // Every event this reader may see, up to this room `seq`, has been read.
    this.whole = 0;
    // The room's `seq` as last heard from the socket.
    this.heardSeq = 0;
    /** @type {Batch[]} */
    this.held = [];
  }

  // Whether the room has logged events (as last heard) that the log may lack: a fetch is due.
  get behind() {
    return this.heardSeq > this.whole;
  }

  /** @param {number} seq The room's `seq`, as a notice, a pong or a pushed view tells it. */
  heard(seq) {
    if (Number.isInteger(seq) && seq > this.heardSeq) this.heardSeq = seq;
  }

  /**
   * A change's events as the socket pushed them. Whether the log gained any.
   * @param {Batch} batch
   */
  pushed(batch) {
    this.heard(batch.seq);
    if (batch.seq <= this.whole) return false;
    if (batch.after > this.whole) {
      // A gap before it (a change pushed to nobody, a message lost): kept for after the fetch.
      this.held = [...this.held, batch].slice(-HELD);
      return false;
    }
    const added = this.add(batch.events);
    this.whole = batch.seq;
    return this.release() || added;
  }

  // Where a fetch begins: pass it to `fetched` once the fetch has read to the end.
  fetching() {
    return this.heardSeq;
  }

  /**
   * A fetch that began at `from` (what `fetching` said) has read every page to the end:
   * the log is whole up to where the room stood then, and to its last event. Whether held
   * batches joined.
   * @param {number} from
   */
  fetched(from) {
    this.whole = Math.max(this.whole, from, this.lastSeq);
    return this.release();
  }

  /**
   * Events in order of `seq`, fetched or pushed; each is kept once, however many ways it came.
   * @param {LoggedEvent[]} events
   */
  add(events) {
    const fresh = events.filter((e) => e.seq > this.lastSeq);
    if (!fresh.length) return false;
    this.events = [...this.events, ...fresh].slice(-this.keep);
    this.lastSeq = fresh[fresh.length - 1].seq;
    return true;
  }

  // Held batches that join now, in order; those the log has passed are let go.
  release() {
    let added = false;
    for (;;) {
      this.held = this.held.filter((b) => b.seq > this.whole);
      const next = this.held.find((b) => b.after <= this.whole);
      if (!next) return added;
      added = this.add(next.events) || added;
      this.whole = next.seq;
    }
  }
}
