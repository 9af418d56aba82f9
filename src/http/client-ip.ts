/**
 * The peer address of each request, recorded by the server's fetch handler (Bun knows it; a Request
 * does not carry it). Forwarded-for headers are not trusted: anyone can send them.
 */
const addresses = new WeakMap<Request, string>();

export function rememberClientIp(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

/** In-process requests (tests calling app.handle) have no peer and share one bucket. */
export function clientIp(request: Request): string {
  return addresses.get(request) ?? "local";
}
