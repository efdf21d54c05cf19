import { z } from 'zod';
import { Ok } from '../api/common.ts';
import {
  Gateway,
  GatewayIdBody,
  GatewayReport,
  GatewaySettings,
  LockSimBody,
  SetSimNumberBody,
  SetSimNumberResult,
  SetSimRoleBody,
  SimActionResult,
  SimUssdBody,
  SimulateSmsBody,
  UnlockSimBody,
  UpdateGatewayBody,
} from '../api/gateways.ts';
import { InboxQuery, InboxResponse } from '../api/orders.ts';
import { endpoint } from '../endpoint.ts';

/** Gateway Manager: the SIM gateways (admin), and the store of incoming SMS (Order Manager's inbox). */
export const gateway = {
  getSettings: endpoint({
    method: 'POST',
    path: '/api/Admin/getSettings',
    access: 'admin',
    tag: 'admin: gateways',
    response: { 200: GatewaySettings },
  }),
  update: endpoint({
    method: 'POST',
    path: '/api/Admin/updateGateway',
    access: 'admin',
    tag: 'admin: gateways',
    body: UpdateGatewayBody,
    response: { 200: Gateway },
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/Admin/deleteGateway',
    access: 'admin',
    tag: 'admin: gateways',
    body: GatewayIdBody,
    response: { 200: Ok },
  }),
  scan: endpoint({
    method: 'POST',
    path: '/api/Admin/gatewayScan',
    access: 'admin',
    tag: 'admin: gateways',
    body: GatewayIdBody,
    response: { 200: Gateway },
  }),
  report: endpoint({
    method: 'POST',
    path: '/api/Admin/gatewayReport',
    access: 'admin',
    tag: 'admin: gateways',
    body: GatewayIdBody,
    response: { 200: GatewayReport },
  }),
  /** Every incoming SMS is kept; `matched=false` lists those no order or chat took. */
  inbox: endpoint({
    method: 'GET',
    path: '/api/Admin/inbox',
    access: 'admin',
    tag: 'admin',
    query: InboxQuery,
    response: { 200: InboxResponse },
  }),
};

/** Gateway Manager's SIM table: per-SIM actions of an admin. */
export const sim = {
  setNumber: endpoint({
    method: 'POST',
    path: '/api/Admin/setSimNumber',
    access: 'admin',
    tag: 'admin: gateways',
    body: SetSimNumberBody,
    response: { 200: SetSimNumberResult },
  }),
  lock: endpoint({
    method: 'POST',
    path: '/api/Admin/lockSim',
    access: 'admin',
    tag: 'admin: gateways',
    description:
      'Locks a SIM by hand (neither rented nor used for sending); without minutes it stays locked until unlocked.',
    body: LockSimBody,
    response: { 200: SimActionResult },
  }),
  unlock: endpoint({
    method: 'POST',
    path: '/api/Admin/unlockSim',
    access: 'admin',
    tag: 'admin: gateways',
    body: UnlockSimBody,
    response: { 200: SimActionResult },
  }),
  setRole: endpoint({
    method: 'POST',
    path: '/api/Admin/setSimRole',
    access: 'admin',
    tag: 'admin: gateways',
    body: SetSimRoleBody,
    response: { 200: SimActionResult },
  }),
  /** Sends a USSD code from the SIM and answers the network's reply, kept on the SIM (`ussd`). */
  ussd: endpoint({
    method: 'POST',
    path: '/api/Admin/simUssd',
    access: 'admin',
    tag: 'admin: gateways',
    description:
      "Sends a USSD code (a balance check such as *100#) from the SIM and answers the network's reply; the reply is kept on the SIM.",
    body: SimUssdBody,
    response: { 200: SimActionResult },
    errors: ['gateway_not_found', 'gateway_unreachable'],
  }),
  /** Stores an incoming SMS as if the device had pushed it. */
  simulateSms: endpoint({
    method: 'POST',
    path: '/api/Admin/simulateSms',
    access: 'admin',
    tag: 'admin: gateways',
    body: SimulateSmsBody,
    response: { 200: Ok },
  }),
};

/** The gateway and its secret, in the path of every push: the push's only credential. */
const DevicePushParams = z.object({ id: z.string(), secret: z.string() });
/** What a device expects back from a push it delivered. */
const DevicePushAck = z.object({ code: z.literal(200), reason: z.literal('OK') });

/**
 * Pushes of a gateway device to its secret URLs (`Gateway.pushUrls`). Their bodies are the device
 * protocol's (JSON, plain text, multipart MMS), read by the gateway driver, so none is declared here.
 */
export const devicePush = {
  /** The gateway's one URL: a device that pushes everything to one place (a phone's webhooks). */
  base: endpoint({
    method: 'POST',
    path: '/api/gw/:id/:secret',
    access: 'device',
    tag: 'device pushes',
    params: DevicePushParams,
    response: { 200: DevicePushAck },
  }),
  status: endpoint({
    method: 'POST',
    path: '/api/gw/:id/:secret/status',
    access: 'device',
    tag: 'device pushes',
    params: DevicePushParams,
    response: { 200: DevicePushAck },
  }),
  sms: endpoint({
    method: 'POST',
    path: '/api/gw/:id/:secret/sms',
    access: 'device',
    tag: 'device pushes',
    params: DevicePushParams,
    response: { 200: DevicePushAck },
  }),
  mms: endpoint({
    method: 'POST',
    path: '/api/gw/:id/:secret/mms',
    access: 'device',
    tag: 'device pushes',
    params: DevicePushParams,
    response: { 200: DevicePushAck },
  }),
  report: endpoint({
    method: 'POST',
    path: '/api/gw/:id/:secret/report',
    access: 'device',
    tag: 'device pushes',
    params: DevicePushParams,
    response: { 200: DevicePushAck },
  }),
};
