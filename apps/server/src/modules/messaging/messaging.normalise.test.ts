import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';

// Formatted numbers ("+1 (555) 123-4567", dashes, dots) reach the server as typed by an API client:
// the contract's rule normalises them, so the campaign holds 1XXXXXXXXXX numbers, each once.

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.adminToken();
  const saved = await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 3, MaxMsgPerDay: 100 },
    token: admin,
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await s.close();
});

describe('sendMassSMS with formatted numbers', () => {
  it('stores each number as 1XXXXXXXXXX once, and counts the limit on the normalised numbers', async () => {
    const u = await s.createUser();
    const number = [
      '+1 (202) 555-0101',
      '12025550101',
      '1-202-555-0102',
      '+1.202.555.0103',
      '(1) 202 555 0102',
    ].join('\n');
    const res = await s.api(endpoints.outreach.sendMassSms, {
      body: { number, mess: 'Hello' },
      token: u.token,
    });
    // Five lines, three numbers: within MaxBatchSendSms = 3.
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ queued: 3, duplicatesRemoved: 2 });
    const rows = await s.db.query<{ recipient: string }>(
      'SELECT recipient FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
      [res.body.data!.campaignId],
    );
    expect(rows.map((r) => r.recipient)).toEqual(['12025550101', '12025550102', '12025550103']);
  });

  it('an entry that is no number once normalised is refused as it was typed', async () => {
    const u = await s.createUser();
    const res = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: '+1 (202) 555-010\n+44 20 7946 0958', mess: 'Hello' },
      token: u.token,
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(
      'Invalid numbers (only accept format: 1XXXXXXXXXX): +1 (202) 555-010, +44 20 7946 0958',
    );
    expect(
      (
        await s.db.query(
          'SELECT 1 FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.user_id = $1',
          [u.id],
        )
      ).length,
    ).toBe(0);
  });
});
