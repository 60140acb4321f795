// Checks a finished hand's deals in the browser, as tools/verify_deals.py does: the
// revealed server seed matches the commitment shown before the hand, and every deal is
// the canonical deck shuffled by HMAC-SHA256 Fisher-Yates (hmac-sha256-fisher-yates-v2,
// or v1 for the hands dealt before it) and dealt round-robin. Uses SubtleCrypto, so it needs a secure context (https or localhost).

// v2 writes the client seeds as a JSON array (no two lists read alike); v1, the hands
// dealt before it, joined them with commas.
const SEEDS_TEXT = {
  "hmac-sha256-fisher-yates-v1": (seeds) => seeds.join(","),
  "hmac-sha256-fisher-yates-v2": (seeds) => JSON.stringify(seeds),
};
const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const WORD = 2 ** 32;
const text = new TextEncoder();

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

function cardDeck(copies) {
  const deck = [];
  for (let c = 0; c < copies; c += 1) for (const s of SUITS) for (const r of RANKS) deck.push(r + s);
  return deck;
}

// The canonical deck, from what one deal held: its size says how many decks or which
// domino set, and the cards missing from it are those removed for the match.
function canonicalDeck(game, dealt) {
  if (game === "moon") {
    const full = [];
    for (let a = 0; a < 7; a += 1) for (let b = 0; b <= a; b += 1) full.push(`${a}-${b}`);
    return dealt.length === 28 ? full : full.filter((t) => t === "0-0" || !t.endsWith("-0"));
  }
  const deck = cardDeck(Math.ceil(dealt.length / 52));
  const left = new Map();
  for (const card of dealt) left.set(card, (left.get(card) ?? 0) + 1);
  const have = new Map();
  for (const card of deck) have.set(card, (have.get(card) ?? 0) + 1);
  for (const [card, n] of have) {
    for (let k = (left.get(card) ?? 0); k < n; k += 1) deck.splice(deck.indexOf(card), 1);
  }
  return deck;
}

async function shuffled(deck, key, prefix) {
  let bytes = new Uint8Array(0);
  let at = 0;
  let counter = 0;
  const next = async () => {
    if (at + 4 > bytes.length) {
      const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, text.encode(`${prefix}${counter}`)));
      counter += 1;
      const joined = new Uint8Array(bytes.length - at + block.length);
      joined.set(bytes.subarray(at));
      joined.set(block, bytes.length - at);
      bytes = joined;
      at = 0;
    }
    const x = ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];
    at += 4;
    return x;
  };
  const out = [...deck];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const limit = WORD - (WORD % (i + 1));
    let x = await next();
    while (x >= limit) x = await next();
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// true when the hand's deals check out, false when they do not, null when there is
// nothing to check (a hand from before deals were provable) or no SubtleCrypto here.
export async function verifyHand(fair) {
  const seedsText = fair ? SEEDS_TEXT[fair.algorithm] : undefined;
  if (!fair || !seedsText || !globalThis.crypto?.subtle) return null;
  if (!/^[0-9a-f]{64}$/.test(fair.server_seed) || !fair.deals.length) return false;
  if (hex(await crypto.subtle.digest("SHA-256", text.encode(fair.server_seed))) !== fair.commitment) return false;
  const raw = new Uint8Array(fair.server_seed.match(/../g).map((b) => parseInt(b, 16)));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  for (const [redeal, deal] of fair.deals.entries()) {
    if (deal.redeal !== redeal) return false;
    const players = deal.hands.length;
    const size = deal.hands[0]?.length ?? 0;
    const deck = canonicalDeck(fair.game, [...deal.hands.flat(), ...deal.widow]);
    const prefix = `${fair.code}:${fair.hand}:${redeal}:${seedsText(fair.client_seeds)}:`;
    const pack = await shuffled(deck, key, prefix);
    for (let s = 0; s < players; s += 1) {
      const want = pack.filter((_, k) => k < players * size && k % players === s);
      if (want.join(" ") !== deal.hands[s].join(" ")) return false;
    }
    if (pack.slice(players * size).join(" ") !== deal.widow.join(" ")) return false;
  }
  return true;
}

// What this page found of each hand it checked, by room: the Fair deal panel lists it
// (fair.js), whichever part of the page read the hands.
/** @type {Map<string, Map<number, boolean | null>>} */
const checked = new Map();

// Marks each entry of a rounds answer with `verified` (true, false or null).
export async function verifyRounds(rounds) {
  await Promise.all(
    rounds.map(async (r) => {
      try {
        r.verified = await verifyHand(r.fairness);
      } catch {
        r.verified = false;
      }
      const code = r.fairness?.code;
      if (code) {
        if (!checked.has(code)) checked.set(code, new Map());
        checked.get(code)?.set(r.round, r.verified);
      }
    }),
  );
  return rounds;
}

// The hands of room `code` checked so far, in order: [hand, true | false | null].
export function checkedHands(code) {
  return [...(checked.get(code) ?? new Map())].sort(([a], [b]) => a - b);
}
