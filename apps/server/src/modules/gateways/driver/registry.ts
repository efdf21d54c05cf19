import type { DeviceKind } from '@simdock/contract';
import type { DriverTarget, GatewayDriver } from './driver.ts';
import { EjoinDriver } from './ejoin.ts';
import { SmsGateDriver } from './smsgate.ts';

/** The driver of each device kind (the gateway's `driver` column). */
export const DRIVERS: Record<DeviceKind, (target: DriverTarget) => GatewayDriver> = {
  ejoin: (target) => new EjoinDriver(target),
  smsgate: (target) => new SmsGateDriver(target),
};

export function isDeviceKind(kind: string): kind is DeviceKind {
  return Object.hasOwn(DRIVERS, kind);
}
