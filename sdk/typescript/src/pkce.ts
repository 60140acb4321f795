// OAuth2's authorization code flow with PKCE (RFC 7636, `S256` only, as the server
// requires), with WebCrypto: in browsers and in Node 20 alike. Make a verifier and its
// challenge, send the person to the authorize URL, trade the code that comes back for
// tokens, refresh them (a refresh token works once: each refresh answers a new pair).
// The OAuth endpoints are django-oauth-toolkit's, outside the OpenAPI document.

function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A code verifier: 64 characters of RFC 7636's unreserved set (43 to 128 allowed). */
export function newVerifier(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(48)));
}

/** The `S256` challenge: base64url of the verifier's SHA-256, without padding. */
export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export interface Authorization {
  url: string; // where to send the person
  verifier: string; // kept for exchangeCode
  state: string; // compared with the state the browser comes back with
}

export async function authorize(
  baseUrl: string,
  options: { clientId: string; redirectUri: string; scopes?: string[] },
): Promise<Authorization> {
  const verifier = newVerifier();
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    scope: (options.scopes ?? ["read", "play"]).join(" "),
    state,
    code_challenge: await challengeOf(verifier),
    code_challenge_method: "S256",
  });
  return { url: `${baseUrl.replace(/\/+$/, "")}/oauth/authorize/?${query}`, verifier, state };
}

export interface OAuthTokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;

  constructor(status: number, error: string, description: string) {
    super(`${status} ${error}: ${description}`);
    this.name = "OAuthError";
    this.status = status;
    this.error = error;
  }
}

async function tokenRequest(baseUrl: string, form: Record<string, string>, send: typeof fetch): Promise<OAuthTokens> {
  const response = await send(`${baseUrl.replace(/\/+$/, "")}/oauth/token/`, {
    method: "POST",
    body: new URLSearchParams(form),
  });
  const body: unknown = await response.json().catch(() => ({}));
  // OAuth's answer, an object (RFC 6749 section 5): read field by field below.
  const answer = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (response.status !== 200 || typeof answer["access_token"] !== "string") {
    throw new OAuthError(response.status, String(answer["error"] ?? "unknown"), String(answer["error_description"] ?? ""));
  }
  const tokens: OAuthTokens = {
    access_token: answer["access_token"],
    expires_in: Number(answer["expires_in"] ?? 0),
    scope: String(answer["scope"] ?? ""),
    token_type: String(answer["token_type"] ?? "Bearer"),
  };
  if (typeof answer["refresh_token"] === "string") tokens.refresh_token = answer["refresh_token"];
  return tokens;
}

/** The code the browser came back with, for tokens (within 60 seconds: codes expire). */
export function exchangeCode(
  baseUrl: string,
  options: { clientId: string; redirectUri: string; code: string; verifier: string; fetch?: typeof fetch },
): Promise<OAuthTokens> {
  const form = {
    grant_type: "authorization_code",
    code: options.code,
    redirect_uri: options.redirectUri,
    client_id: options.clientId,
    code_verifier: options.verifier,
  };
  return tokenRequest(baseUrl, form, options.fetch ?? globalThis.fetch);
}

/** A new pair for the refresh token, which is spent: keep the new one. */
export function refresh(
  baseUrl: string,
  options: { clientId: string; refreshToken: string; fetch?: typeof fetch },
): Promise<OAuthTokens> {
  const form = { grant_type: "refresh_token", refresh_token: options.refreshToken, client_id: options.clientId };
  return tokenRequest(baseUrl, form, options.fetch ?? globalThis.fetch);
}
