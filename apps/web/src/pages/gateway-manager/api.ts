import {
  endpoints,
  type Gateway,
  type GatewayInput,
  type GatewayReport,
  type GatewaySettings,
  type LockSimBody,
  type Ok,
  type SetSimNumberBody,
  type SetSimNumberResult,
  type SetSimOriginBody,
  type SetSimRoleBody,
  type SimActionResult,
  type SimUssdBody,
  type SimulateSmsBody,
  type UnlockSimBody,
} from '@simdock/contract';
import {
  type QueryClient,
  queryOptions,
  useMutation,
  useMutationState,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { z } from 'zod';
import { call, requireCode1 } from '../../api/client.ts';
import { recoverInterval } from '../../lib/recover.ts';

/**
 * Gateway Manager calls (all POST, Admin9): per call a fetcher, query options where it is a read,
 * and a hook. Every mutation refetches the gateway list (and the SIM reports) when it settles.
 */
export const GATEWAYS_KEY = ['gateways'] as const;
export const GATEWAY_SETTINGS_KEY = [...GATEWAYS_KEY, 'settings'] as const;
export const gatewayReportKey = (id: string) => [...GATEWAYS_KEY, 'report', id] as const;
const SCAN_KEY = [...GATEWAYS_KEY, 'scan'] as const;

/**
 * The list refetches this often: online status follows the devices' pushes
 * (docs/product.md#states-and-colours).
 */
export const GATEWAY_POLL_MS = 30_000;

const refetchGateways = (qc: QueryClient) => qc.invalidateQueries({ queryKey: GATEWAYS_KEY });

// ---- getSettings ------------------------------------------------------------------------------

/** POST /api/Admin/getSettings → {gateways, serverTime}. */
export function fetchGatewaySettings(signal?: AbortSignal): Promise<GatewaySettings> {
  return call(endpoints.gateway.getSettings, undefined, { signal });
}

export function gatewaySettingsQuery() {
  return queryOptions({
    queryKey: GATEWAY_SETTINGS_KEY,
    queryFn: ({ signal }) => fetchGatewaySettings(signal),
    refetchInterval: recoverInterval(GATEWAY_POLL_MS),
  });
}

export function useGatewaySettings() {
  return useQuery(gatewaySettingsQuery());
}

// ---- updateGateway ----------------------------------------------------------------------------

/** POST /api/Admin/updateGateway {gateway}: add without id, edit with id. */
export function saveGateway(gateway: GatewayInput): Promise<Gateway> {
  return call(endpoints.gateway.update, { gateway });
}

export function useSaveGatewayMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: [...GATEWAYS_KEY, 'save'],
    mutationFn: saveGateway,
    onSettled: () => refetchGateways(qc),
  });
}

// ---- deleteGateway ----------------------------------------------------------------------------

/** POST /api/Admin/deleteGateway {id} → {code: 1, msg}; 409 while orders on it wait for a code. */
export async function deleteGateway(id: string): Promise<Ok> {
  return requireCode1(await call(endpoints.gateway.delete, { id }));
}

export function useDeleteGatewayMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: [...GATEWAYS_KEY, 'delete'],
    mutationFn: deleteGateway,
    onSettled: () => refetchGateways(qc),
  });
}

// ---- gatewayScan ------------------------------------------------------------------------------

/** POST /api/Admin/gatewayScan {id} → the gateway (503 with the reason when the device does not answer). */
export function scanGateway(id: string): Promise<Gateway> {
  return call(endpoints.gateway.scan, { id });
}

export function useScanGatewayMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: SCAN_KEY,
    mutationFn: scanGateway,
    onError: (error, id) => scanFailures.set(id, { at: Date.now(), error }),
    onSuccess: (gateway) => {
      scanFailures.clear(gateway.id);
      qc.setQueryData<GatewaySettings>(GATEWAY_SETTINGS_KEY, (old) =>
        old ? { ...old, gateways: old.gateways.map((g) => (g.id === gateway.id ? gateway : g)) } : old,
      );
    },
    onSettled: () => refetchGateways(qc),
  });
}

/**
 * The last failed scan of each gateway (this browser's time and the error), kept for the session: the
 * list says "Scan failed 2 min ago" instead of "Not scanned yet" until a scan succeeds.
 */
export interface ScanFailure {
  at: number;
  error: unknown;
}
const failed = new Map<string, ScanFailure>();
const failureListeners = new Set<() => void>();
let failedSnapshot: ReadonlyMap<string, ScanFailure> = new Map();
const scanFailures = {
  set(id: string, f: ScanFailure) {
    failed.set(id, f);
    scanFailures.emit();
  },
  clear(id: string) {
    if (failed.delete(id)) scanFailures.emit();
  },
  emit() {
    failedSnapshot = new Map(failed);
    for (const fn of failureListeners) fn();
  },
};

export function useScanFailures(): ReadonlyMap<string, ScanFailure> {
  return useSyncExternalStore(
    (fn) => {
      failureListeners.add(fn);
      return () => void failureListeners.delete(fn);
    },
    () => failedSnapshot,
    () => failedSnapshot,
  );
}

/** Ids of the gateways whose scan is running (a row shows 'Scanning' and 0 SIMs meanwhile). */
export function useScanningIds(): Set<string> {
  const ids = useMutationState({
    filters: { mutationKey: SCAN_KEY, status: 'pending' },
    select: (m) => m.state.variables as string,
  });
  return new Set(ids);
}

// ---- gatewayReport ----------------------------------------------------------------------------

/** POST /api/Admin/gatewayReport {id} → {gateway, sims}: the SIM inventory as the last scan left it. */
export function fetchGatewayReport(id: string, signal?: AbortSignal): Promise<GatewayReport> {
  return call(endpoints.gateway.report, { id }, { signal });
}

export function gatewayReportQuery(id: string) {
  return queryOptions({
    queryKey: gatewayReportKey(id),
    queryFn: ({ signal }) => fetchGatewayReport(id, signal),
    refetchInterval: recoverInterval(GATEWAY_POLL_MS),
  });
}

export function useGatewayReport(id: string) {
  return useQuery(gatewayReportQuery(id));
}

// ---- setSimNumber -----------------------------------------------------------------------------

export type SetSimNumberInput = z.input<typeof SetSimNumberBody>;

/** POST /api/Admin/setSimNumber: kept by ICCID on the platform and written to the device. */
export async function setSimNumber(body: SetSimNumberInput): Promise<SetSimNumberResult> {
  return requireCode1(await call(endpoints.sim.setNumber, body));
}

export function useSetSimNumberMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: [...GATEWAYS_KEY, 'setSimNumber'],
    mutationFn: setSimNumber,
    onSuccess: (res, vars) => {
      qc.setQueryData<GatewayReport>(gatewayReportKey(vars.gatewayId), (old) =>
        old ? { ...old, sims: old.sims.map((s) => (s.port === res.sim.port ? res.sim : s)) } : old,
      );
    },
    onSettled: () => refetchGateways(qc),
  });
}

// ---- simulateSms ------------------------------------------------------------------------------

export type SimulateSmsInput = z.input<typeof SimulateSmsBody>;

/** POST /api/Admin/simulateSms: stores an incoming SMS as if the device had pushed it. */
export async function simulateSms(body: SimulateSmsInput): Promise<Ok> {
  return requireCode1(await call(endpoints.sim.simulateSms, body));
}

export function useSimulateSmsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: [...GATEWAYS_KEY, 'simulateSms'],
    mutationFn: simulateSms,
    onSettled: () => refetchGateways(qc),
  });
}

// ---- lockSim / unlockSim / setSimRole / simUssd ---------------------------------------------------------------

/** POST /api/Admin/lockSim {gatewayId, port, reason, minutes?}: no minutes = until unlocked. */
export async function lockSim(body: LockSimBody): Promise<SimActionResult> {
  return requireCode1(await call(endpoints.sim.lock, body));
}

/** POST /api/Admin/unlockSim {gatewayId, port, reason}. */
export async function unlockSim(body: UnlockSimBody): Promise<SimActionResult> {
  return requireCode1(await call(endpoints.sim.unlock, body));
}

/** POST /api/Admin/setSimRole {gatewayId, port, role}. */
export async function setSimRole(body: SetSimRoleBody): Promise<SimActionResult> {
  return requireCode1(await call(endpoints.sim.setRole, body));
}

/** POST /api/Admin/simUssd {gatewayId, port, code}: the network's reply is `msg`, kept on the SIM. */
export async function simUssd(body: SimUssdBody): Promise<SimActionResult> {
  return requireCode1(await call(endpoints.sim.ussd, body));
}

/** A SIM action's answer replaces that SIM in the report at once; the list refetches after. */
function useSimAction<B extends { gatewayId: string }>(
  name: string,
  fn: (body: B) => Promise<SimActionResult>,
) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: [...GATEWAYS_KEY, name],
    mutationFn: fn,
    onSuccess: (res, vars) => {
      qc.setQueryData<GatewayReport>(gatewayReportKey(vars.gatewayId), (old) =>
        old ? { ...old, sims: old.sims.map((s) => (s.port === res.sim.port ? res.sim : s)) } : old,
      );
    },
    onSettled: () => refetchGateways(qc),
  });
}

export const useLockSimMutation = () => useSimAction('lockSim', lockSim);
export const useUnlockSimMutation = () => useSimAction('unlockSim', unlockSim);
export const useSetSimRoleMutation = () => useSimAction('setSimRole', setSimRole);
export const useSimUssdMutation = () => useSimAction('simUssd', simUssd);

/** POST /api/Admin/setSimOrigin {gatewayId, port, country, operator}: nulls clear the correction. */
export async function setSimOrigin(body: SetSimOriginBody): Promise<SetSimNumberResult> {
  return requireCode1(await call(endpoints.catalogue.setSimOrigin, body));
}

export const useSetSimOriginMutation = () => useSimAction('setSimOrigin', setSimOrigin);
