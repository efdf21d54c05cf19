import type { DeviceKind } from '@simdock/contract';
import type { DriverTarget, GatewayDriver } from './driver.ts';
import { EjoinDriver } from './ejoin.ts';
import { SmsGateDriver } from './smsgate.ts';

/** The driver of each device kind (the gateway's `driver` column). */
export const DRIVERS: Record<DeviceKind, (target: DriverTarget) => GatewayDriver> = {
  ejoin: (target) => new EjoinDriver(target),
  smsgate: (target) => new SmsGateDriver(target),
};

/** What a kind of device can do beyond SMS, for the modules that choose a SIM. */
export const DEVICE_CAN: Record<DeviceKind, { sendMms: boolean }> = {
  ejoin: { sendMms: true },
  // SMSGate sends SMS and data SMS only (it receives MMS).
  smsgate: { sendMms: false },
};

export function isDeviceKind(kind: string): kind is DeviceKind {
  return Object.hasOwn(DRIVERS, kind);
}
