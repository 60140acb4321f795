// One person playing a whole match with the TypeScript SDK alone (its built dist/, the
// folder given in the config): signs up, creates a room, adds computer players, starts,
// and sends one of its view's legal actions at random until the match is over, while a
// RoomFeed follows the room and is cut once mid-match. Prints one JSON line: the final
// view, the room's log as GameServer.events reads it, the events the feed delivered and
// how often it connected. Run as `node play_match.mjs '<config as JSON>'`.

const config = JSON.parse(process.argv[2]);
const { GameServer, bodyOf, ApiError } = await import(`${config.dist}/index.js`);

let state = config.seed >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function sample(items, count) {
  const pool = [...items];
  const picked = [];
  while (picked.length < count) picked.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return picked;
}

const server = new GameServer(config.base);
await server.register(`ts-${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`, "a-long-secret-9");
const code = await server.createRoom({ game: config.game, options: config.options });
for (let i = 0; i < config.computers; i++) await server.addComputer(code);
const lobby = await server.state(code);
if (lobby.game !== config.game || lobby.phase !== "lobby") throw new Error(`not a lobby: ${JSON.stringify(lobby)}`);

const feed = server.feed(code);
const seen = [];
const following = (async () => {
  for await (const update of feed) seen.push(...update.events);
})();

let view = await server.start(code);
for (let step = 0; view.status === "playing"; step++) {
  if (step === 3000) throw new Error("the match did not end within 3000 moves");
  if (step === 6) feed.drop();
  const legal = view.you.legal_actions.filter((a) => a.type !== "claim");
  const action = bodyOf(legal[Math.floor(random() * legal.length)], sample);
  view = await server.play(code, view.version, action);
}
const final = await server.state(code);
const log = await server.events(code);
const deadline = Date.now() + 30000;
while (seen.length < log.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
feed.close();
await following;

// A move after the end is refused with its stable code.
let stale = null;
try {
  await server.play(code, 0, { type: "next_round" });
} catch (error) {
  stale = error instanceof ApiError ? { status: error.status, codes: error.codes } : String(error);
}
await server.signOut();
let signedOut = null;
try {
  await server.state(code);
} catch (error) {
  signedOut = error instanceof ApiError ? error.status : String(error);
}
console.log(JSON.stringify({ final, log, seen, connections: feed.connections, stale, signedOut }));
