// One WebSocket to the server (docs/protocol.md). It enters the room again by itself
// after any disconnection (a phone locked, the server restarted), with the seat's token,
// and the server answers with everything from scratch.

const PROTOCOL = 1;

export class Connection {
  /**
   * @param {() => object} entering the message that enters the room (join, rejoin or
   *   watch), asked for at every (re)connection: after a join it becomes a rejoin.
   * @param {(frame: object) => void} onFrame every frame from the server
   * @param {(state: string) => void} onState "connecting", "open" or "closed"
   */
  constructor(entering, onFrame, onState) {
    this.entering = entering;
    this.onFrame = onFrame;
    this.onState = onState;
    this.next = 1;
    this.pending = new Map();
    this.retry = 250;
    this.stopped = false;
    this.socket = null;
  }

  open() {
    this.stopped = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.socket = socket;
    this.onState("connecting");
    socket.addEventListener("open", () => {
      this.retry = 250;
      const message = this.entering();
      if (message) this.send(message).catch(() => {});
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      for (const { reject } of this.pending.values()) {
        reject({ code: "disconnected", message: "" });
      }
      this.pending.clear();
      this.onState("closed");
      if (!this.stopped) {
        setTimeout(() => this.open(), this.retry);
        this.retry = Math.min(this.retry * 2, 5000);
      }
    });
  }

  close() {
    this.stopped = true;
    if (this.socket) this.socket.close();
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.type === "welcome") {
      if (frame.version !== PROTOCOL) console.warn("protocol", frame.version);
      this.onState("open");
    }
    const waiting = frame.id != null ? this.pending.get(frame.id) : undefined;
    if (waiting && ["ack", "error", "welcome", "pong"].includes(frame.type)) {
      this.pending.delete(frame.id);
      if (frame.type === "error") waiting.reject(frame);
      else waiting.resolve(frame);
    }
    this.onFrame(frame);
  }

  /** Send `message`; the promise settles with its answer (an error rejects it). */
  send(message) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject({ code: "disconnected", message: "" });
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }
}
