import { describe, expect, it } from 'vitest';
import { MASS_SEND_TEXT_MAX_CHARS } from '../messaging.ts';
import {
  ChatMessage,
  Conversation,
  HISTORY_PAGE_SIZES,
  MassOutreachSettings,
  MassSendBody,
  MassSendResponse,
  MmsUploadResponse,
  QueryConversationDetailResponse,
  QueryConversationResponse,
  QueryMsgBody,
  QueryMsgResponse,
  ReplyBody,
  UpdateConversationBody,
  UpdateSettingsBody,
} from './messaging.ts';

function firstIssue(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string | undefined {
  return result.error?.issues[0]?.message;
}

describe('MassSendBody', () => {
  it('keeps the spec shape {number, mess}', () => {
    expect(MassSendBody.parse({ number: '15551234567', mess: 'Hi' })).toEqual({
      number: '15551234567',
      mess: 'Hi',
    });
  });

  it('bounds both texts', () => {
    const big = 'x'.repeat(MASS_SEND_TEXT_MAX_CHARS + 1);
    expect(firstIssue(MassSendBody.safeParse({ number: big, mess: '' }))).toBe(
      'The recipient list is too long.',
    );
    expect(firstIssue(MassSendBody.safeParse({ number: '', mess: big }))).toBe(
      'The message content is too long.',
    );
    expect(MassSendBody.safeParse({ number: 1, mess: '' }).success).toBe(false);
  });

  it('response: code and msg, optional counts', () => {
    expect(MassSendResponse.parse({ code: 1, msg: 'Send successful!' })).toEqual({
      code: 1,
      msg: 'Send successful!',
    });
    const data = {
      campaignId: 'c1',
      queued: 3,
      duplicatesRemoved: 1,
      skippedOptOut: 0,
      cost: 0.0225,
      balance: 9.9775,
    };
    expect(MassSendResponse.parse({ code: 1, msg: 'Send successful!', data }).data).toEqual(data);
  });
});

describe('settings', () => {
  it('getSettings answer: the limits, the SIM settings and whether a SIM can send', () => {
    const answer = {
      maxBatchSendSms: 100,
      maxMsgPerDay: 1000,
      simMaxSmsPerDay: 0,
      simMaxSmsPerMonth: 0,
      simLockAfterFailures: 5,
      simCooldownMinutes: 60,
      simsKeptForSendingPercent: 20,
      noFreeSim: false,
      smsPricePerSegment: 0.0075,
      mmsPrice: 0.02,
      countries: [
        { country: 'DE', name: 'Germany', smsPricePerSegment: 0.05, mmsPrice: null, enabled: true },
      ],
      otherCountriesEnabled: true,
    };
    expect(MassOutreachSettings.parse(answer)).toEqual(answer);
    expect(MassOutreachSettings.safeParse({ maxBatchSendSms: 100, maxMsgPerDay: 1000 }).success).toBe(false);
  });

  it('updateSettings: prices are optional, ≥ 0 with at most four decimals, as a number or decimal text', () => {
    expect(UpdateSettingsBody.parse({ SmsPricePerSegment: 0.0075, MmsPrice: '0.02' })).toMatchObject({
      SmsPricePerSegment: 0.0075,
      MmsPrice: '0.02',
    });
    for (const bad of [-0.01, 0.00001, '1e-3', 'abc', Number.NaN]) {
      expect(firstIssue(UpdateSettingsBody.safeParse({ SmsPricePerSegment: bad }))).toBe(
        'Price per SMS segment must be an amount ≥ 0 with at most four decimals (USD).',
      );
    }
    expect(firstIssue(UpdateSettingsBody.safeParse({ MmsPrice: -1 }))).toMatch(/^Price per MMS/);
  });

  it('updateSettings: the SIM settings are optional whole numbers with their own messages', () => {
    expect(UpdateSettingsBody.parse({ SimLockAfterFailures: 3 })).toEqual({ SimLockAfterFailures: 3 });
    expect(firstIssue(UpdateSettingsBody.safeParse({ SimMaxSmsPerDay: -1 }))).toBe(
      'SIM Max SMS Per Day must be a whole number from 0 to 100000.',
    );
    expect(firstIssue(UpdateSettingsBody.safeParse({ SimMaxSmsPerMonth: 3_000_001 }))).toBe(
      'SIM Max SMS Per Month must be a whole number from 0 to 3000000.',
    );
    expect(firstIssue(UpdateSettingsBody.safeParse({ SimLockAfterFailures: 2.5 }))).toBe(
      'Lock SIM After Failures must be a whole number from 0 to 1000.',
    );
    expect(firstIssue(UpdateSettingsBody.safeParse({ SimCooldownMinutes: '60' }))).toBe(
      'SIM Cooldown (minutes) must be a whole number from 0 to 43200.',
    );
  });

  it('updateSettings: capitalised names; a field left out stays out (the stored value is kept)', () => {
    expect(UpdateSettingsBody.parse({})).toEqual({});
    expect(UpdateSettingsBody.parse({ MaxMsgPerDay: 7 })).toEqual({ MaxMsgPerDay: 7 });
    expect(UpdateSettingsBody.parse({ MaxBatchSendSms: 500, MaxMsgPerDay: 0 })).toEqual({
      MaxBatchSendSms: 500,
      MaxMsgPerDay: 0,
    });
  });

  it.each([-1, 1.5, 'abc', 100_001, Number.NaN])(
    'MaxBatchSendSms %s is refused with a clear message',
    (v) => {
      expect(firstIssue(UpdateSettingsBody.safeParse({ MaxBatchSendSms: v, MaxMsgPerDay: 0 }))).toBe(
        'Max Batch Send SMS must be a whole number from 0 to 100000.',
      );
    },
  );

  it('MaxMsgPerDay message', () => {
    expect(firstIssue(UpdateSettingsBody.safeParse({ MaxBatchSendSms: 0, MaxMsgPerDay: -3 }))).toBe(
      'Max Messages Per Day must be a whole number from 0 to 100000000.',
    );
  });
});

describe('QueryMsgBody', () => {
  it('defaults: page 1, size 50, no filters', () => {
    expect(QueryMsgBody.parse({})).toEqual({ current: 1, size: 50, params: {} });
  });

  it('takes the spec payload', () => {
    const body = {
      current: 2,
      size: 100,
      params: { name: '', status: '', seatId: '', type: '', strTime: 1_757_462_400, endTime: 1_757_548_799 },
    };
    expect(QueryMsgBody.parse(body)).toEqual(body);
  });

  it('every page size of the page is accepted; 0 and 501 are not', () => {
    for (const size of HISTORY_PAGE_SIZES) expect(QueryMsgBody.safeParse({ size }).success).toBe(true);
    expect(QueryMsgBody.safeParse({ size: 0 }).success).toBe(false);
    expect(QueryMsgBody.safeParse({ size: 501 }).success).toBe(false);
    expect(QueryMsgBody.safeParse({ current: 0 }).success).toBe(false);
  });

  it('an end before the start is refused', () => {
    const r = QueryMsgBody.safeParse({ params: { strTime: 200, endTime: 100 } });
    expect(firstIssue(r)).toBe('The end date must not be before the start date.');
  });

  it('times are epoch seconds (integers)', () => {
    expect(QueryMsgBody.safeParse({ params: { strTime: 1.5 } }).success).toBe(false);
    expect(QueryMsgBody.safeParse({ params: { strTime: -1 } }).success).toBe(false);
  });

  it('response shape', () => {
    const res = {
      code: 1,
      data: {
        sum: { numCnt: 2, success: 1, replyUserCnt: 1, successRate: 50, replyRate: 50 },
        records: [
          {
            id: 'm1',
            receiver: '15551234567',
            sms: 'Hi',
            userAlias: 'alice',
            status: 1,
            statusReason: null,
            smsGateway: null,
            smsPort: null,
            timestamp: 1_757_462_400,
            cost: 0.0075,
            refunded: false,
            mms: false,
          },
        ],
        total: 2,
      },
    };
    expect(QueryMsgResponse.parse(res)).toEqual(res);
  });
});

describe('chat', () => {
  const conversation = {
    conversationId: 'c1',
    receiver: '15551234567',
    contactName: 'Ann',
    note: '',
    latestSms: 'Hi',
    latestTime: 1_757_462_400,
    isRead: false,
  };
  const message = {
    id: 'm1',
    sms: 'Hi',
    upDownType: 1,
    timestamp: 1_757_462_400,
    mmsFile: null,
    status: 1,
    result: null,
    statusReason: null,
  };

  it('list and detail responses', () => {
    expect(Conversation.parse(conversation)).toEqual(conversation);
    expect(ChatMessage.parse(message)).toEqual(message);
    expect(
      QueryConversationResponse.parse({ code: 1, data: { records: [conversation] } }).data.records,
    ).toHaveLength(1);
    const detail = QueryConversationDetailResponse.parse({
      code: 1,
      data: { msgList: [message], pictures: false },
    });
    expect(detail.data.msgList).toHaveLength(1);
    // Whether the conversation can take a picture is part of every answer (a phone SIM cannot send MMS).
    expect(detail.data.pictures).toBe(false);
    expect(() => QueryConversationDetailResponse.parse({ code: 1, data: { msgList: [message] } })).toThrow();
  });

  it('update: trimmed and bounded', () => {
    expect(UpdateConversationBody.parse({ conversationId: 'c1', contactName: ' Ann ', note: ' n ' })).toEqual(
      {
        conversationId: 'c1',
        contactName: 'Ann',
        note: 'n',
      },
    );
    expect(
      firstIssue(
        UpdateConversationBody.safeParse({ conversationId: 'c1', contactName: 'x'.repeat(101), note: '' }),
      ),
    ).toBe('Name must be at most 100 characters.');
    expect(UpdateConversationBody.safeParse({ conversationId: '', contactName: '', note: '' }).success).toBe(
      false,
    );
  });

  it('reply: the spec payload', () => {
    const body = {
      conversationId: 'c1',
      sms: 'Hi',
      toNumber: '15551234567',
      simNo: 1,
      mmsType: 0,
      mmsTitle: '',
      mmsFile: '',
    };
    expect(ReplyBody.parse(body)).toEqual(body);
    expect(ReplyBody.parse({ ...body, sms: '', mmsType: 1, mmsFile: 'a1b2c3.jpg' }).mmsFile).toBe(
      'a1b2c3.jpg',
    );
  });

  it('reply: text or file required; the file is a stored name, never a path', () => {
    const base = { conversationId: 'c1', toNumber: '15551234567' };
    expect(firstIssue(ReplyBody.safeParse({ ...base, sms: '  ', mmsFile: '' }))).toBe(
      'Please enter a message or attach a file.',
    );
    for (const bad of ['../etc/passwd', 'a/b.jpg', '..', 'a..jpg', `${'a'.repeat(129)}`]) {
      expect(ReplyBody.safeParse({ ...base, sms: 'x', mmsFile: bad }).success).toBe(false);
    }
    expect(ReplyBody.safeParse({ ...base, sms: 'x'.repeat(1531), mmsFile: '' }).success).toBe(false);
  });

  it('upload response', () => {
    expect(MmsUploadResponse.parse({ code: 1, msg: 'ok', fileName: 'a.jpg' }).fileName).toBe('a.jpg');
  });
});
