// The one Node global these programs read, so that they need no @types/node: Node 20's
// fetch, Request, Response, URL, crypto and console are typed by TypeScript's DOM library.
declare const process: { readonly argv: readonly string[] };
