// The API's one error shape, thrown: `{"type": …, "errors": [{"code", "detail", "attr"}]}`.
// Read from the JSON rather than through the generated types: the shape is the same for
// every operation and status, and a code this version does not know is kept as it is (v1
// may add codes; a client treats one it does not know by its status).

export interface ErrorDetail {
  code: string;
  detail: string;
  attr: string | null;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly errors: ErrorDetail[];
  readonly retryAfter: string | null;

  constructor(status: number, type: string, errors: ErrorDetail[], retryAfter: string | null) {
    const said = errors.map((e) => `${e.code}: ${e.detail}`).join("; ");
    super(`${status} ${type}: ${said || "no details"}`);
    this.name = "ApiError";
    this.status = status;
    this.type = type;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }

  get codes(): string[] {
    return this.errors.map((e) => e.code);
  }

  /** The error in an answer's parsed body (`body`: its JSON, or null). */
  static of(status: number, body: unknown, retryAfter: string | null): ApiError {
    if (typeof body !== "object" || body === null) {
      // Not the API's shape (a proxy's page, say): the status says enough.
      return new ApiError(status, "unknown", [], retryAfter);
    }
    // An object, checked just above: read field by field.
    const record = body as Record<string, unknown>;
    const listed: unknown[] = Array.isArray(record["errors"]) ? record["errors"] : [];
    const errors = listed.flatMap((e): ErrorDetail[] => {
      if (typeof e !== "object" || e === null) return [];
      // One entry of the errors list: an object, checked just above.
      const entry = e as Record<string, unknown>;
      const attr = entry["attr"];
      const code = String(entry["code"] ?? "");
      return [{ code, detail: String(entry["detail"] ?? ""), attr: typeof attr === "string" ? attr : null }];
    });
    return new ApiError(status, String(record["type"] ?? "unknown"), errors, retryAfter);
  }
}

/** The room socket was closed with a code reconnecting cannot cure: 4401 (no valid
 * credentials, or banned), 4403 (an origin not trusted), 4404 (no such room). */
export class SocketRefused extends Error {
  readonly code: number;
  readonly reason: string;

  constructor(code: number, reason: string) {
    super(`socket closed with ${code}: ${reason || "no reason given"}`);
    this.name = "SocketRefused";
    this.code = code;
    this.reason = reason;
  }
}
