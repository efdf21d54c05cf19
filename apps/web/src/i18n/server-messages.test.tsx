import { ERROR_CODES, messagingMessage, Ok, ruleMessages } from '@simdock/contract';
import { cleanup, render } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiPost } from '../api/client.ts';
import { mockFetch } from '../test/utils.tsx';
import { en as enInitial } from './en.ts';
import { enScreens } from './en-screens.ts';
import { I18nProvider, loadLanguage, loadTexts, type Params, translateIn } from './index.tsx';
import { contractTextOf, serverErrorText, type Translate } from './server-messages.ts';
import { vi } from './vi.ts';

const inVi: Translate = (key, params) => translateIn('vi', key, params);
const inEn: Translate = (key, params) => translateIn('en', key, params);
/** English before the signed-in screens' texts are loaded (the login page): no `messaging.*` entries. */
const initialEn: Translate = (key, params?: Params) =>
  key in enInitial ? translateIn('en', key, params) : key;

describe('contractTextOf', () => {
  it('finds a rule text only when it is the whole text', () => {
    expect(contractTextOf(ruleMessages.passwordTooShort)).toEqual({ key: 'rule.passwordTooShort' });
    expect(contractTextOf(`${ruleMessages.passwordTooShort}!`)).toBeUndefined();
    expect(contractTextOf('Nope.')).toBeUndefined();
  });

  it('reads the params of a messaging template back', () => {
    const sent = messagingMessage('tooManyNumbers', { limit: 100, provided: 250 }).text;
    expect(contractTextOf(sent)).toEqual({
      key: 'messaging.tooManyNumbers',
      params: { limit: '100', provided: '250' },
    });
    expect(contractTextOf('Invalid numbers (only accept format: 1XXXXXXXXXX): 12, abc (+3 more)')).toEqual({
      key: 'messaging.invalidNumbers',
      params: { numbers: '12, abc (+3 more)' },
    });
    expect(contractTextOf(messagingMessage('sendError').text)).toEqual({
      key: 'messaging.sendError',
      params: {},
    });
  });
});

describe('serverErrorText: what a failed call shows', () => {
  beforeAll(async () => {
    await loadLanguage('vi');
    await loadTexts('screens');
  });

  it('a rule text in the language shown (the English one is the server text itself)', () => {
    const error = { msg: ruleMessages.emailInvalid, code: 'bad_input' };
    expect(serverErrorText(error, 'vi', inVi)).toBe(vi['rule.emailInvalid']);
    expect(serverErrorText(error, 'vi', inVi)).toBe('Email không hợp lệ');
    expect(serverErrorText(error, 'en', inEn)).toBe(ruleMessages.emailInvalid);
  });

  it('a messaging template with its params, in both languages', () => {
    const msg = messagingMessage('dailyLimitReached', { limit: 500, remaining: 3 }).text;
    const error = { msg, code: 'daily_limit_reached' };
    expect(serverErrorText(error, 'vi', inVi)).toBe(
      vi['messaging.dailyLimitReached'].replace('{limit}', '500').replace('{remaining}', '3'),
    );
    expect(serverErrorText(error, 'vi', inVi)).not.toBe(msg);
    expect(serverErrorText(error, 'en', inEn)).toBe(msg);
    // Before the messaging texts are loaded, English shows the server's text.
    expect(serverErrorText(error, 'en', initialEn)).toBe(msg);
  });

  it("any other text: the code's catalogue entry when the language is not English, else the server's text", () => {
    const error = {
      msg: 'Another gateway already uses the MAC address 00:30:f1:aa:bb:cc.',
      code: 'conflict',
    };
    expect(serverErrorText(error, 'vi', inVi)).toBe(vi['errorCode.conflict']);
    expect(serverErrorText(error, 'en', inEn)).toBe(error.msg);
  });

  it("an unknown code (a newer server) or none keeps the server's text", () => {
    expect(serverErrorText({ msg: 'Something new.', code: 'brand_new_code' }, 'vi', inVi)).toBe(
      'Something new.',
    );
    expect(serverErrorText({ msg: 'No code.' }, 'vi', inVi)).toBe('No code.');
  });

  it('every contract error code has an entry in both languages', () => {
    const en = { ...enInitial, ...enScreens };
    for (const code of ERROR_CODES) {
      const key = `errorCode.${code}` as const;
      expect(en[key], code).toBeTruthy();
      expect(vi[key], code).toBeTruthy();
      expect(vi[key], code).not.toBe(en[key]);
    }
  });
});

describe('the API client builds its errors with it', () => {
  it("a Vietnamese page reads the server's refusal in Vietnamese; serverMessage stays the server's text", async () => {
    await loadLanguage('vi');
    render(<I18nProvider initial="vi">{null}</I18nProvider>);
    mockFetch(() => ({
      status: 409,
      body: { code: 0, error: 'username_taken', msg: 'The username "ann" is taken.', field: 'username' },
    }));
    const err = await apiPost('/api/x', {}, Ok).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      message: vi['errorCode.username_taken'],
      kind: 'username_taken',
      field: 'username',
      serverMessage: 'The username "ann" is taken.',
    });
    mockFetch(() => ({
      status: 400,
      body: { code: 0, error: 'bad_input', msg: ruleMessages.passwordTooShort },
    }));
    await expect(apiPost('/api/x', {}, Ok)).rejects.toMatchObject({
      message: vi['rule.passwordTooShort'],
      serverMessage: ruleMessages.passwordTooShort,
    });
    cleanup();
  });
});
