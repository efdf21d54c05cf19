/** How often a failed list asks the server again by itself. */
export const RECOVER_MS = 10_000;

/**
 * A query's `refetchInterval` that brings a page back by itself after an outage: while the last fetch
 * failed, it tries again every RECOVER_MS (a restarted server is not an "online" event the browser
 * sees; a 4xx is not retried); otherwise it polls every `normal` ms, or not at all.
 */
export function recoverInterval(normal: number | false = false) {
  return (query: { state: { status: string; error: Error | null } }): number | false => {
    if (query.state.status !== 'error') return normal;
    // A refusal (4xx) says the same again: only outages and server errors are worth asking about.
    const status = (query.state.error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) return normal;
    return Math.min(RECOVER_MS, normal || RECOVER_MS);
  };
}
