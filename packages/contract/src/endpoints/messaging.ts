import {
  AdminOutreachSettings,
  CampaignBody,
  CampaignResponse,
  CancelCampaignBody,
  CancelCampaignResponse,
  DailyStatsBody,
  DailyStatsResponse,
  ExportMsgBody,
  MassOutreachSettings,
  MassSendBody,
  MassSendResponse,
  QueryMsgBody,
  QueryMsgResponse,
  UpdateSettingsBody,
} from '../api/messaging.ts';
import { endpoint } from '../endpoint.ts';

/** The SMS Sending page: the limits it enforces, the mass send and its campaign's progress. */
export const outreach = {
  getSettings: endpoint({
    method: 'POST',
    path: '/api/MassOutreach/getSettings',
    access: 'user',
    tag: 'messaging',
    response: { 200: MassOutreachSettings },
  }),
  /** The body may pass the server-wide limit (the server raises it for this route alone). */
  sendMassSms: endpoint({
    method: 'POST',
    path: '/api/MassOutreach/sendMassSMS',
    access: 'user',
    tag: 'messaging',
    body: MassSendBody,
    response: { 200: MassSendResponse },
  }),
  /** One campaign's progress; without an id, the caller's latest. */
  campaign: endpoint({
    method: 'POST',
    path: '/api/MassOutreach/campaign',
    access: 'user',
    tag: 'messaging',
    body: CampaignBody,
    response: { 200: CampaignResponse },
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/MassOutreach/cancel',
    access: 'user',
    tag: 'messaging',
    body: CancelCampaignBody,
    response: { 200: CancelCampaignResponse },
  }),
};

/** The History page: the sent messages, the per-day chart and the CSV export. */
export const history = {
  queryMsg: endpoint({
    method: 'POST',
    path: '/api/MassOutreach/querymsg',
    access: 'user',
    tag: 'messaging',
    body: QueryMsgBody,
    response: { 200: QueryMsgResponse },
  }),
  dailyStats: endpoint({
    method: 'POST',
    path: '/api/MassOutreach/dailyStats',
    access: 'user',
    tag: 'messaging',
    body: DailyStatsBody,
    response: { 200: DailyStatsResponse },
  }),
  /** A file answer: read it with `callText`. */
  exportMsg: endpoint({
    method: 'POST',
    path: '/api/MassOutreach/exportmsg',
    access: 'user',
    tag: 'messaging',
    description: 'The filtered history records as CSV (text/csv).',
    body: ExportMsgBody,
  }),
};

/** The Settings page (Admin9): the outreach limits and the SIM sending settings. */
export const settings = {
  get: endpoint({
    method: 'POST',
    path: '/api/Admin/getOutreachSettings',
    access: 'admin',
    tag: 'admin',
    response: { 200: AdminOutreachSettings },
  }),
  update: endpoint({
    method: 'POST',
    path: '/api/Admin/updateSettings',
    access: 'admin',
    tag: 'admin',
    body: UpdateSettingsBody,
    response: { 200: MassOutreachSettings },
  }),
};
