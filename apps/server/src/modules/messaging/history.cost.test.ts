import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { refundEndedMessages } from './index.ts';

// What messages cost, as History and the campaign's progress show it: each message's cost and
// whether it was refunded, the campaign's charged / refunded / net total (both databases).

let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  const saved = await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 100, MaxMsgPerDay: 1000, SmsPricePerSegment: '0.0075', MmsPrice: '0.02' },
    token: admin,
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await s.close();
});

const NUMBERS = ['13105550101', '13105550102', '13105550103'];

describe('message costs in History and the campaign progress', () => {
  it('shows each message at its price, the failed one refunded, and the campaign charged, refunded and net', async () => {
    const u = await s.createUser({ balance: 1 });
    const sent = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: NUMBERS.join('\n'), mess: 'Hello' },
      token: u.token,
    });
    expect(sent.status).toBe(200);
    const campaignId: string = sent.body.data!.campaignId;

    let progress = await s.api(endpoints.outreach.campaign, { body: { campaignId }, token: u.token });
    expect(progress.body.data).toMatchObject({ cost: 0.0225, refunded: 0, netCost: 0.0225 });

    // One message fails for good (as the dispatcher records it); its money goes back.
    await s.db.query(
      `UPDATE messages SET status = 'failed', status_reason = 'rejected'
        WHERE campaign_id = $1::bigint AND recipient = $2`,
      [campaignId, NUMBERS[1]],
    );
    await refundEndedMessages(s.ctx);

    const history = await s.api(endpoints.history.queryMsg, {
      body: { current: 1, size: 10, params: {} },
      token: u.token,
    });
    expect(history.status).toBe(200);
    const byReceiver = Object.fromEntries(
      history.body.data.records.map((r: { receiver: string; cost: number; refunded: boolean }) => [
        r.receiver,
        { cost: r.cost, refunded: r.refunded },
      ]),
    );
    expect(byReceiver).toEqual({
      [NUMBERS[0]!]: { cost: 0.0075, refunded: false },
      [NUMBERS[1]!]: { cost: 0.0075, refunded: true },
      [NUMBERS[2]!]: { cost: 0.0075, refunded: false },
    });

    progress = await s.api(endpoints.outreach.campaign, { body: { campaignId }, token: u.token });
    expect(progress.body.data).toMatchObject({ cost: 0.0225, refunded: 0.0075, netCost: 0.015, failed: 1 });
    // The latest campaign (no id) answers the same money.
    expect((await s.api(endpoints.outreach.campaign, { token: u.token })).body.data).toMatchObject({
      campaignId,
      netCost: 0.015,
    });
  });

  it('shows free messages at 0 and not refunded', async () => {
    const u = await s.createUser();
    await s.api(endpoints.settings.update, {
      body: { MaxBatchSendSms: 100, MaxMsgPerDay: 1000, SmsPricePerSegment: 0 },
      token: admin,
    });
    const sent = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: '13105550199', mess: 'Hi' },
      token: u.token,
    });
    expect(sent.status).toBe(200);
    const history = await s.api(endpoints.history.queryMsg, { token: u.token });
    expect(history.body.data.records).toMatchObject([{ receiver: '13105550199', cost: 0, refunded: false }]);
    const progress = await s.api(endpoints.outreach.campaign, { token: u.token });
    expect(progress.body.data).toMatchObject({ cost: 0, refunded: 0, netCost: 0 });
  });
});
