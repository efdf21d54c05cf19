import { type DeviceStats, endpoints } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { recoverInterval } from '../../lib/recover.ts';

/** POST /api/Admin/deviceStats {mac} → {mac, totalSIM, serviceStatss}. */
export function fetchDeviceStats(mac: string, signal?: AbortSignal): Promise<DeviceStats> {
  return call(endpoints.order.deviceStats, { mac }, { signal });
}

export function deviceStatsQuery(mac: string) {
  return queryOptions({
    queryKey: ['device', 'stats', mac] as const,
    queryFn: ({ signal }) => fetchDeviceStats(mac, signal),
    refetchInterval: recoverInterval(),
  });
}

export function useDeviceStats(mac: string) {
  return useQuery(deviceStatsQuery(mac));
}
