import type { ConfiguredModule } from '../../module.ts';
import { smppListener } from './listener.ts';
import { pruneOutbox, smppMessageEvents } from './outbox.ts';
import { smppConfig } from './smpp.config.ts';
import { smppRoutes } from './smpp.routes.ts';

// SMPP 3.4 for messaging customers: an API key with the messaging:send scope gets an SMPP
// credential; its binds submit messages through messaging exactly like the REST API (prices,
// limits, STOP list, the fair queue). Receipts of its messages and replies to them are kept in an
// outbox per account and go out as deliver_sm to its receiving binds, in whichever process.

export { smppPorts } from './ports.ts';

export { smppConfig };

export const smppModule: ConfiguredModule<typeof smppConfig> = {
  name: 'smpp',
  tables: [
    'smpp_accounts',
    'smpp_user_limits',
    'smpp_outbox',
    'smpp_messages',
    'smpp_conversations',
    'smpp_binds',
  ],
  config: smppConfig,
  routes: smppRoutes,
  listeners: [smppListener],
  messageEventListeners: [smppMessageEvents],
  jobs: [
    {
      name: 'smpp-outbox-prune',
      intervalMs: () => 10 * 60_000,
      run: (ctx) => pruneOutbox(ctx),
    },
  ],
};
