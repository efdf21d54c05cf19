export { startFromArgs } from './cli.ts';
export type { DeliveryKind, IpnRecord } from './ipn.ts';
export type { Invoice, NpStatus, Payment } from './model.ts';
export { NP_STATUSES } from './model.ts';
export type { Forgery, Modes, Outcome, SimOptions } from './options.ts';
export { DEFAULT_MODES, FORGERIES, OUTCOMES } from './options.ts';
export type { Dialect } from './signing.ts';
export type { InvoiceRequest, PayRequest } from './sim.ts';
export { PaymentSim, SimError } from './sim.ts';
