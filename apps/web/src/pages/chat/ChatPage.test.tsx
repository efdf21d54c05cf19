import type { ChatMessage, Conversation } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { applyConversation } from '../../live/live.tsx';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const user = userInfoFor('ann', ['User']);

const conv = (over: Partial<Conversation> & Pick<Conversation, 'conversationId'>): Conversation => ({
  receiver: '13105550101',
  contactName: '',
  note: '',
  latestSms: 'hello',
  latestTime: 1_790_000_000,
  isRead: true,
  ...over,
});

const msg = (over: Partial<ChatMessage> & Pick<ChatMessage, 'id'>): ChatMessage => ({
  sms: 'text',
  upDownType: 0,
  timestamp: 1_790_000_000,
  mmsFile: null,
  status: null,
  result: null,
  statusReason: null,
  ...over,
});

type Handler = (body: unknown, init?: RequestInit) => { status?: number; body: unknown };

function signIn(routes: Record<string, Handler>) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'User')));
  return mockFetch((path, init) => {
    const route = routes[path];
    if (route) {
      const raw = init?.body;
      const body = typeof raw === 'string' ? JSON.parse(raw) : raw;
      return route(body, init);
    }
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    if (path === '/api/livechat/unreadCount')
      return { body: { code: 1, data: { conversations: 0, replies: 0 } } };
    if (path.startsWith('/api/media/')) return { body: 'binary' };
    return { body: user };
  });
}

const list = (records: Conversation[]) => () => ({ body: { code: 1, data: { records } } });
/** The threads by conversation; `noPictures`: conversations whose SIM is in a phone. */
const thread =
  (byId: Record<string, ChatMessage[]>, noPictures: string[] = []) =>
  (body: unknown) => {
    const id = (body as { conversationId: string }).conversationId;
    return { body: { code: 1, data: { msgList: byId[id] ?? [], pictures: !noPictures.includes(id) } } };
  };

const calls = (fetch: ReturnType<typeof mockFetch>, path: string) =>
  fetch.mock.calls.filter(([p]) => p === path).map(([, init]) => init as RequestInit);
const bodies = (fetch: ReturnType<typeof mockFetch>, path: string) =>
  calls(fetch, path).map((init) => (typeof init.body === 'string' ? JSON.parse(init.body) : init.body));

const unreadOf = (c: Conversation) => c.unreadCount ?? (c.isRead ? 0 : 1);

/**
 * The server's chat as the page sees it: the list filtered and ordered (unread first, then newest
 * first), the badge's count, and opening a thread marks its conversation read. `records` is the
 * server's state (a test may change it); `replied`: conversations answered before (any unread one is).
 */
function inbox(records: Conversation[], threads: Record<string, ChatMessage[]> = {}, replied: string[] = []) {
  const answered = new Set(replied);
  const routes: Record<string, Handler> = {
    '/api/livechat/queryConversation': (body) => {
      for (const c of records) if (unreadOf(c) > 0) answered.add(c.conversationId);
      const filter = (body as { filter?: string } | undefined)?.filter ?? 'all';
      const shown = records
        .filter(
          (c) => filter === 'all' || (filter === 'unread' ? unreadOf(c) > 0 : answered.has(c.conversationId)),
        )
        .sort((a, b) => Number(unreadOf(b) > 0) - Number(unreadOf(a) > 0) || b.latestTime - a.latestTime);
      return { body: { code: 1, data: { records: shown } } };
    },
    '/api/livechat/unreadCount': () => {
      const unread = records.filter((c) => unreadOf(c) > 0);
      const replies = unread.reduce((n, c) => n + unreadOf(c), 0);
      return { body: { code: 1, data: { conversations: unread.length, replies } } };
    },
    '/api/livechat/queryConversationDetail': (body) => {
      const id = (body as { conversationId: string }).conversationId;
      const i = records.findIndex((c) => c.conversationId === id);
      if (i >= 0) records[i] = { ...records[i]!, isRead: true, unreadCount: 0 };
      return { body: { code: 1, data: { msgList: threads[id] ?? [], pictures: true } } };
    },
  };
  return routes;
}

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
});

describe('Chat (/ChatPage)', () => {
  it('lists conversations, selects the first, shows bubbles, indicators, media and the unread total', async () => {
    const fetch = signIn(
      inbox(
        [
          conv({
            conversationId: 'c1',
            contactName: 'Ann Lee',
            latestSms: 'see\u0007 you',
            isRead: false,
            unreadCount: 2,
          }),
          conv({ conversationId: 'c2', receiver: '13105550202', latestSms: 'bye', isRead: false }),
        ],
        {
          c1: [
            msg({ id: 'm1', sms: 'hi\u0000 there\u001B', upDownType: 0 }),
            msg({ id: 'm2', sms: 'ok', upDownType: 1, status: 1 }),
            msg({ id: 'm3', sms: 'nope', upDownType: 1, result: 0, statusReason: 'Opted out' }),
            msg({ id: 'm4', sms: 'pending', upDownType: 1 }),
            msg({ id: 'm5', sms: '', upDownType: 0, mmsFile: 'abc.jpg' }),
          ],
        },
      ),
    );
    renderApp('/ChatPage');
    await screen.findByRole('heading', { level: 1, name: 'Chat' });
    const items = await screen.findAllByTestId('conversation');
    expect(items).toHaveLength(2);
    expect(items[0]!.getAttribute('aria-current')).toBe('true');
    expect(items[0]?.textContent).toContain('Ann Lee');
    expect(items[0]?.textContent).toContain('see you');
    // Numbers as people read them: under a contact's name, and as the title of one without a name.
    expect(items[0]?.textContent).toContain('+1 310-555-0101');
    expect(items[1]?.textContent).toContain('+1 310-555-0202');
    expect(items[1]?.textContent).not.toContain('13105550202');

    const log = await screen.findByRole('log', { name: 'Messages with Ann Lee' });
    await within(log).findByText('hi there');
    const bubbles = within(log).getAllByTestId('chat-message');
    expect(bubbles.map((b) => b.dataset.direction)).toEqual(['in', 'out', 'out', 'out', 'in']);
    expect(within(bubbles[1]!).getByRole('img', { name: 'Delivered' })).toBeTruthy();
    expect(within(bubbles[2]!).getByRole('img', { name: 'Not delivered: Opted out' })).toBeTruthy();
    expect(within(bubbles[3]!).queryByTestId('delivery')).toBeNull();
    expect(within(bubbles[0]!).queryByTestId('delivery')).toBeNull();
    // Fetched with the token and shown as a data: URL (the CSP allows data: images, not blob:).
    expect((await within(bubbles[4]!).findByRole('img', { name: 'Image' })).getAttribute('src')).toMatch(
      /^data:/,
    );
    const media = calls(fetch, '/api/media/abc.jpg');
    expect(new Headers(media[0]?.headers).get('authorization')).toMatch(/^Bearer /);

    // Opening c1 marks it read: the list drops its badge; the sidebar counts the conversations with
    // unread replies left (c2), fetched again from the server.
    await waitFor(() => expect(within(items[0]!).queryByTestId('unread-badge')).toBeNull());
    expect(await screen.findByRole('link', { name: 'Chat, 1 unread' })).toBeTruthy();
    // All is the spec's empty payload.
    expect(bodies(fetch, '/api/livechat/queryConversation')[0]).toEqual({});
  });

  it('filters All / Unread / Replied through the URL, with the unread count on Unread', async () => {
    const fetch = signIn(
      inbox(
        [
          conv({
            conversationId: 'r1',
            contactName: 'First reply',
            latestTime: 1_790_000_100,
            isRead: false,
          }),
          conv({
            conversationId: 'r2',
            contactName: 'Second reply',
            latestTime: 1_790_000_090,
            isRead: false,
          }),
          conv({ conversationId: 's1', contactName: 'Silent one', latestTime: 1_790_000_900 }),
          conv({ conversationId: 's2', contactName: 'Silent two', latestTime: 1_790_000_800 }),
          conv({ conversationId: 'ans', contactName: 'Answered', latestTime: 1_790_000_050 }),
        ],
        {},
        ['ans'],
      ),
    );
    // Each row's title (its first line starts with it).
    const names = () =>
      screen.getAllByTestId('conversation').map((r) => r.firstElementChild?.firstElementChild?.textContent);
    const { router } = renderApp('/ChatPage');
    const group = await screen.findByRole('group', { name: 'Show conversations' });
    const button = (name: RegExp) => within(group).getByRole('button', { name });
    expect(button(/^All/).getAttribute('aria-pressed')).toBe('true');
    expect(button(/^Unread/).getAttribute('aria-pressed')).toBe('false');
    // The unread replies lead although two conversations are newer; the first is opened (read).
    await screen.findByRole('log', { name: 'Messages with First reply' });
    expect(names()).toEqual(['First reply', 'Second reply', 'Silent one', 'Silent two', 'Answered']);
    await waitFor(() => expect(button(/^Unread/).textContent).toBe('Unread1'));

    fireEvent.click(button(/^Replied/));
    await waitFor(() => expect(router.state.location.search).toBe('?filter=replied'));
    expect(button(/^Replied/).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(names()).toEqual(['First reply', 'Second reply', 'Answered']));
    expect(bodies(fetch, '/api/livechat/queryConversation')).toContainEqual({ filter: 'replied' });

    fireEvent.click(button(/^Unread/));
    await waitFor(() => expect(router.state.location.search).toBe('?filter=unread'));
    // The one being read stays (read) while selected.
    await waitFor(() => expect(names()).toEqual(['First reply', 'Second reply']));
    fireEvent.click(screen.getAllByTestId('conversation')[1]!);
    await screen.findByRole('log', { name: 'Messages with Second reply' });
    await waitFor(() => expect(button(/^Unread/).textContent).toBe('Unread'));

    fireEvent.click(button(/^All/));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(names()).toHaveLength(5));
  }, 20_000);

  it('a live conversation event refreshes the filtered list and the sidebar count', async () => {
    const records = [
      conv({ conversationId: 'u1', contactName: 'Reading this', latestTime: 1_790_000_100, isRead: false }),
      conv({ conversationId: 's1', contactName: 'Silent', latestTime: 1_790_000_200 }),
    ];
    signIn(inbox(records));
    const { queryClient } = renderApp('/ChatPage?filter=unread');
    await screen.findByRole('log', { name: 'Messages with Reading this' });
    await screen.findByRole('link', { name: 'Chat' });
    // The silent recipient answers; the stream's event is what the shell applies.
    records[1] = {
      ...records[1]!,
      latestSms: 'Now I reply',
      latestTime: 1_790_000_300,
      isRead: false,
      unreadCount: 1,
    };
    applyConversation(queryClient, records[1]);
    expect(await screen.findByRole('link', { name: 'Chat, 1 unread' })).toBeTruthy();
    // The newer reply above the one being read (which stays, read and selected).
    await waitFor(() => expect(screen.getAllByTestId('conversation')).toHaveLength(2));
    const [fresh, reading] = screen.getAllByTestId('conversation');
    expect(fresh!.textContent).toContain('Now I reply');
    expect(within(fresh!).getByTestId('unread-badge')).toBeTruthy();
    expect(reading!.getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('button', { name: /^Unread/ }).textContent).toBe('Unread1');
  });

  it('says so when no reply is unread, or none came', async () => {
    signIn(inbox([conv({ conversationId: 'c1', contactName: 'Ann' })]));
    const { router } = renderApp('/ChatPage?filter=unread');
    expect((await screen.findAllByText('No unread replies')).length).toBeGreaterThan(0);
    await router.navigate('/ChatPage?filter=replied');
    expect((await screen.findAllByText('No replies yet')).length).toBeGreaterThan(0);
    // An unknown filter is All.
    await router.navigate('/ChatPage?filter=spam');
    expect(await screen.findAllByTestId('conversation')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /^All/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('opens on the filter in the URL; reading there keeps the conversation in place and opens nothing else', async () => {
    const fetch = signIn(
      inbox([
        conv({ conversationId: 'u1', contactName: 'Newest reply', latestTime: 1_790_000_500, isRead: false }),
        conv({ conversationId: 'u2', contactName: 'Older reply', latestTime: 1_790_000_400, isRead: false }),
        conv({ conversationId: 'r1', contactName: 'Read one', latestTime: 1_790_000_900 }),
      ]),
    );
    const { queryClient } = renderApp('/ChatPage?filter=unread');
    await screen.findByRole('log', { name: 'Messages with Newest reply' });
    expect(bodies(fetch, '/api/livechat/queryConversation')[0]).toEqual({ filter: 'unread' });
    expect(await screen.findByRole('link', { name: 'Chat, 1 unread' })).toBeTruthy();
    // The server no longer lists u1 under Unread: it stays, selected and read, above u2.
    await queryClient.invalidateQueries({ queryKey: ['chat', 'conversations'] });
    await waitFor(() => expect(bodies(fetch, '/api/livechat/queryConversation').length).toBeGreaterThan(1));
    const rows = await screen.findAllByTestId('conversation');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.getAttribute('aria-current')).toBe('true');
    expect(rows[0]!.textContent).toContain('Newest reply');
    expect(within(rows[0]!).queryByTestId('unread-badge')).toBeNull();
    expect(within(rows[1]!).getByTestId('unread-badge')).toBeTruthy();
    // u2 was not opened (so not read) behind the reader's back.
    expect(bodies(fetch, '/api/livechat/queryConversationDetail').map((b) => b.conversationId)).not.toContain(
      'u2',
    );
    // Selecting u2 lets u1 go.
    fireEvent.click(rows[1]!);
    await screen.findByRole('log', { name: 'Messages with Older reply' });
    await queryClient.invalidateQueries({ queryKey: ['chat', 'conversations'] });
    await waitFor(() =>
      expect(screen.getAllByTestId('conversation').map((r) => r.textContent)).toEqual([
        expect.stringContaining('Older reply'),
      ]),
    );
    expect(await screen.findByRole('link', { name: 'Chat' })).toBeTruthy();
  });

  it('searches by name or number and selects with a click', async () => {
    signIn({
      '/api/livechat/queryConversation': list([
        conv({ conversationId: 'c1', contactName: 'Ann' }),
        conv({ conversationId: 'c2', receiver: '14155550303' }),
      ]),
      '/api/livechat/queryConversationDetail': thread({ c2: [msg({ id: 'x', sms: 'from Bob' })] }),
    });
    renderApp('/ChatPage');
    const search = await screen.findByRole('searchbox', { name: 'Search by name or number' });
    fireEvent.change(search, { target: { value: '415' } });
    const items = await screen.findAllByTestId('conversation');
    expect(items).toHaveLength(1);
    fireEvent.click(items[0]!);
    await screen.findByText('from Bob');
    fireEvent.change(search, { target: { value: 'zzz' } });
    await screen.findByText('No conversation matches “zzz”.');
  });

  it('shows No Conversation and No Message', async () => {
    signIn({ '/api/livechat/queryConversation': list([]) });
    renderApp('/ChatPage');
    expect((await screen.findAllByText('No Conversation')).length).toBeGreaterThan(0);
  });

  it('shows No Message for an empty thread', async () => {
    signIn({
      '/api/livechat/queryConversation': list([conv({ conversationId: 'c1' })]),
      '/api/livechat/queryConversationDetail': thread({}),
    });
    renderApp('/ChatPage');
    await screen.findByText('No Message');
  });

  it('blocks an empty send; Enter sends the text; Shift+Enter does not', async () => {
    const replies: unknown[] = [];
    const stored: ChatMessage[] = [];
    signIn({
      '/api/livechat/queryConversation': list([conv({ conversationId: 'c1' })]),
      '/api/livechat/queryConversationDetail': thread({ c1: stored }),
      '/api/LiveChat/reply': (body) => {
        replies.push(body);
        const sent = msg({ id: 'r1', sms: 'Hello there', upDownType: 1 });
        stored.push(sent);
        return { body: { code: 1, msg: 'ok', data: sent } };
      },
    });
    renderApp('/ChatPage');
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await screen.findByText('No Message');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Please enter a message or attach a file.');
    expect(replies).toEqual([]);

    fireEvent.change(box, { target: { value: 'Hello there' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(replies).toEqual([]);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(replies).toHaveLength(1));
    expect(replies[0]).toEqual({
      conversationId: 'c1',
      sms: 'Hello there',
      toNumber: '13105550101',
      simNo: 1,
      mmsType: 0,
      mmsTitle: '',
      mmsFile: '',
    });
    await waitFor(() => expect((box as HTMLInputElement).value).toBe(''));
    await screen.findByText('Hello there');
  });

  it('attaches an image with a preview, removes it, and sends an MMS (upload, then reply with its name)', async () => {
    const replies: unknown[] = [];
    const fetch = signIn({
      '/api/livechat/queryConversation': list([conv({ conversationId: 'c1' })]),
      '/api/livechat/queryConversationDetail': thread({ c1: [] }),
      '/api/LiveChat/mmsUpload': () => ({ body: { code: 1, msg: 'ok', fileName: 'f0a1.png' } }),
      '/api/LiveChat/reply': (body) => {
        replies.push(body);
        return { body: { code: 1, msg: 'ok' } };
      },
    });
    renderApp('/ChatPage');
    await screen.findByText('No Message');
    const input = screen.getByTestId('chat-attach-input') as HTMLInputElement;
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'cat.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [png] } });
    expect(await screen.findByRole('img', { name: 'Attachment: cat.png' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove attachment' }));
    expect(screen.queryByTestId('chat-attachment')).toBeNull();

    // A PDF is refused before anything is sent.
    fireEvent.change(input, {
      target: { files: [new File(['%PDF'], 'a.pdf', { type: 'application/pdf' })] },
    });
    await screen.findByText('Only images (JPEG, PNG, GIF, WebP) and MP4 videos can be attached.');

    // The limit is shown, and a picture over it is refused when picked, not on Send.
    expect(screen.getByText('Attach images or MP4 videos up to 5 MB')).toBeTruthy();
    const big = new File([new Uint8Array(12 * 1024 * 1024)], 'big.jpg', { type: 'image/jpeg' });
    fireEvent.change(input, { target: { files: [big] } });
    await screen.findByText('big.jpg is 12 MB: an attachment can be at most 5 MB.');
    expect(screen.queryByTestId('chat-attachment')).toBeNull();
    expect(calls(fetch, '/api/LiveChat/mmsUpload')).toHaveLength(0);

    fireEvent.change(input, { target: { files: [png] } });
    await screen.findByTestId('chat-attachment');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(replies).toHaveLength(1));
    const [upload] = calls(fetch, '/api/LiveChat/mmsUpload');
    expect(upload?.body).toBeInstanceOf(FormData);
    expect(((upload!.body as FormData).get('file') as File).name).toBe('cat.png');
    expect(replies[0]).toMatchObject({ sms: '', mmsType: 1, mmsFile: 'f0a1.png', simNo: 1 });
    await waitFor(() => expect(screen.queryByTestId('chat-attachment')).toBeNull());
  });

  it('a conversation through a phone says before any upload that it cannot take pictures', async () => {
    const fetch = signIn({
      '/api/livechat/queryConversation': list([conv({ conversationId: 'c1' })]),
      '/api/livechat/queryConversationDetail': thread({ c1: [] }, ['c1']),
    });
    renderApp('/ChatPage');
    await screen.findByText('No Message');
    const reason = 'This conversation goes through a phone, which cannot send pictures: text only.';
    const attach = await screen.findByRole('button', { name: reason });
    expect((attach as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(reason)).toBeTruthy();
    expect(screen.queryByText('Attach images or MP4 videos up to 5 MB')).toBeNull();
    // A file that got in anyway (picked before the thread answered) is refused here, never uploaded.
    const input = screen.getByTestId('chat-attach-input') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' })] } });
    await screen.findByTestId('chat-attachment');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(calls(fetch, '/api/LiveChat/mmsUpload')).toHaveLength(0);
  });

  it("alerts 'File upload failed: ' and 'Reply failed: ' with the server's msg", async () => {
    signIn({
      '/api/livechat/queryConversation': list([conv({ conversationId: 'c1' })]),
      '/api/livechat/queryConversationDetail': thread({ c1: [] }),
      '/api/LiveChat/mmsUpload': () => ({ body: { code: 0, msg: 'Unsupported file type', fileName: '' } }),
      '/api/LiveChat/reply': () => ({ body: { code: 0, msg: 'The SIM of this conversation is gone' } }),
    });
    renderApp('/ChatPage');
    await screen.findByText('No Message');
    const input = screen.getByTestId('chat-attach-input') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' })] } });
    await screen.findByTestId('chat-attachment');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('File upload failed: Unsupported file type');
    // The file stays for another try; without it the text goes and the reply is refused.
    fireEvent.click(screen.getByRole('button', { name: 'Remove attachment' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Reply failed: The SIM of this conversation is gone');
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLInputElement).value).toBe('hi');
  });

  it('edits the contact (Name, Note, Cancel, Save) and reports a failure in the spec words', async () => {
    const updates: unknown[] = [];
    let fail = false;
    signIn({
      '/api/livechat/queryConversation': list([conv({ conversationId: 'c1', note: 'old note' })]),
      '/api/livechat/queryConversationDetail': thread({ c1: [] }),
      '/api/livechat/updateConversation': (body) => {
        updates.push(body);
        if (fail) return { status: 400, body: { code: 0, error: 'validation', msg: 'Name too long' } };
        return {
          body: { code: 1, msg: 'ok', data: conv({ conversationId: 'c1', contactName: 'Ann', note: 'VIP' }) },
        };
      },
    });
    renderApp('/ChatPage');
    await screen.findByText('No Message');
    fireEvent.click(screen.getByRole('button', { name: 'Edit contact' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit Contact' });
    expect((within(dialog).getByLabelText('Note') as HTMLInputElement).value).toBe('old note');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit contact' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Contact' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Ann ' } });
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'VIP' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(updates[0]).toEqual({ conversationId: 'c1', contactName: 'Ann', note: 'VIP' });

    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Edit contact' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Contact' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Update failed: Name too long');
    expect(screen.getByRole('dialog', { name: 'Edit Contact' })).toBeTruthy();
  });

  it('re-selects the first conversation when the selected one disappears', async () => {
    let records = [
      conv({ conversationId: 'c1', contactName: 'Ann' }),
      conv({ conversationId: 'c2', contactName: 'Bob' }),
    ];
    signIn({
      '/api/livechat/queryConversation': () => ({ body: { code: 1, data: { records } } }),
      '/api/livechat/queryConversationDetail': thread({}),
    });
    const { queryClient } = renderApp('/ChatPage');
    fireEvent.click((await screen.findAllByTestId('conversation'))[1]!);
    await screen.findByRole('log', { name: 'Messages with Bob' });
    records = [conv({ conversationId: 'c3', contactName: 'Cy' }), records[0]!];
    await queryClient.invalidateQueries({ queryKey: ['chat', 'conversations'] });
    await screen.findByRole('log', { name: 'Messages with Cy' });
  });
});
