import { endpoint } from '../endpoint.ts';

/**
 * The signed-in user's live stream: server-sent events (`event: <name>`, `data: <JSON>`), each
 * event's data described by `liveEvents` (../live-events.ts). The web follows it on every screen.
 */
export const live = {
  stream: endpoint({
    method: 'GET',
    path: '/api/Order/stream',
    access: 'user',
    tag: 'orders',
    description: "text/event-stream of the user's live events (`event: order`, …)",
  }),
};
