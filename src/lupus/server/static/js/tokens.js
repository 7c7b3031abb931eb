// The seats' tokens, kept by this browser (docs/protocol.md, "Identity and tokens"): the
// server gives a token once, and the page needs it to come back to its seat.

const key = (code) => `lupus:room:${code}`;

/** {token, host} for this room, or null. */
export function kept(code) {
  try {
    return JSON.parse(localStorage.getItem(key(code)) || "null");
  } catch {
    return null;
  }
}

export function keep(code, token, host) {
  localStorage.setItem(key(code), JSON.stringify({ token, host }));
}

export function forget(code) {
  localStorage.removeItem(key(code));
}
