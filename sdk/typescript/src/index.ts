// A client of the trick-taking game server's API v1 (README.md). The package's version is
// the API document's `info.version` it was generated from.

export { bodyOf, isTemplate, type LegalActionLike } from "./actions.js";
export { ApiError, type ErrorDetail, SocketRefused } from "./errors.js";
export type { components, paths } from "./generated/schema.js";
export { isEvent, isGameView } from "./narrow.js";
export { authorize, challengeOf, exchangeCode, newVerifier, OAuthError, type OAuthTokens, refresh } from "./pkce.js";
export { fetchWithRetries, retryAfterSeconds, type RetryOptions } from "./retries.js";
export { RoomFeed, type RoomFeedOptions, type RoomUpdate, type WebSocketConstructor, type WebSocketLike } from "./roomFeed.js";
export { type Action, type Event, GameServer, type GameServerOptions, type Game, type NewRoom, type View } from "./server.js";
