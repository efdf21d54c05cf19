// The areas of `endpoints` (see index.ts). Exported one by one so a bundler keeps only the areas a
// page uses: `endpoints` is this module's namespace, and `endpoints.auth.login` is a static reference.
export { account } from './account.ts';
export { apikey } from './apikey.ts';
export { audit } from './audit.ts';
export { auth } from './auth.ts';
export { catalogue } from './catalogue.ts';
export { livechat } from './chat.ts';
export { devicePush, gateway, sim } from './gateways.ts';
export { live } from './live.ts';
export { messageApi } from './messageApi.ts';
export { history, outreach, settings } from './messaging.ts';
export { meta } from './meta.ts';
export { order } from './orders.ts';
export { overview } from './overview.ts';
export { payment, sandbox } from './payments.ts';
export { rentalApi } from './rentalApi.ts';
export { secondFactor } from './second-factor.ts';
export { service } from './services.ts';
export { smpp } from './smpp.ts';
export { smsgateApi } from './smsgateApi.ts';
export { userAdmin } from './user-admin.ts';
export { user } from './users.ts';
export { webhooks } from './webhooks.ts';
