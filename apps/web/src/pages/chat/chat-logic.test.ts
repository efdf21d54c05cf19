import { MMS_MAX_BYTES } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import {
  attachmentProblem,
  conversationTitle,
  displayText,
  displayUrl,
  filterConversations,
  inboxOrder,
  isAtBottom,
  isAttachable,
  mediaKind,
  parseChatFilter,
  pickSelection,
  previewText,
  shouldScrollToBottom,
  unreadOf,
  withChatFilter,
} from './chat-logic.ts';

const c = (conversationId: string) => ({ conversationId });

describe('pickSelection (docs/product.md#states-and-colours)', () => {
  it('auto-selects the first conversation when none is selected', () => {
    expect(pickSelection([c('a'), c('b')], null)).toBe('a');
  });
  it('keeps the selected conversation while it is listed, wherever it moved', () => {
    expect(pickSelection([c('a'), c('b')], 'b')).toBe('b');
    expect(pickSelection([c('b'), c('a')], 'a')).toBe('a');
  });
  it('selects the first when the selected one disappears, or none when the list is empty', () => {
    expect(pickSelection([c('x'), c('y')], 'gone')).toBe('x');
    expect(pickSelection([], 'gone')).toBeNull();
    expect(pickSelection([], null)).toBeNull();
  });
});

describe('unread counts', () => {
  it('uses the server count, else 1 for an unread conversation', () => {
    expect(unreadOf({ isRead: false, unreadCount: 3 })).toBe(3);
    expect(unreadOf({ isRead: false })).toBe(1);
    expect(unreadOf({ isRead: true })).toBe(0);
    expect(unreadOf({ isRead: true, unreadCount: 0 })).toBe(0);
  });
});

describe('the list filter in the URL', () => {
  it('reads unread and replied; anything else, or nothing, is all', () => {
    expect(parseChatFilter('unread')).toBe('unread');
    expect(parseChatFilter('replied')).toBe('replied');
    expect(parseChatFilter(null)).toBe('all');
    expect(parseChatFilter('')).toBe('all');
    expect(parseChatFilter('UNREAD')).toBe('all');
    expect(parseChatFilter('spam')).toBe('all');
  });
  it('sets ?filter=, drops it for all, and keeps the other parameters', () => {
    const p = new URLSearchParams('x=1');
    expect(withChatFilter(p, 'unread').toString()).toBe('x=1&filter=unread');
    expect(withChatFilter(new URLSearchParams('filter=unread&x=1'), 'replied').toString()).toBe(
      'filter=replied&x=1',
    );
    expect(withChatFilter(new URLSearchParams('filter=unread&x=1'), 'all').toString()).toBe('x=1');
    // The given parameters are not changed.
    expect(p.toString()).toBe('x=1');
  });
});

describe('inboxOrder: the conversation being read keeps its place', () => {
  const row = (conversationId: string, latestTime: number, unreadCount = 0) => ({
    conversationId,
    latestTime,
    unreadCount,
    isRead: unreadCount === 0,
  });
  const ids = (l: { conversationId: string }[]) => l.map((c) => c.conversationId);
  // As the server lists them: unread first, then newest first.
  const a = row('1', 100, 2);
  const b = row('2', 90, 1);
  const c = row('3', 300);
  const d = row('4', 200);

  it("is the server's order when nothing unread was opened", () => {
    expect(ids(inboxOrder([a, b, c, d], null, false))).toEqual(['1', '2', '3', '4']);
  });
  it('keeps an opened conversation among the unread ones once the server lists it as read', () => {
    const readA = { ...a, unreadCount: 0, isRead: true };
    // After reading, the server moves it among the read ones (newest first: after 3 and 4).
    const server = [b, c, d, readA];
    expect(ids(inboxOrder(server, a, false))).toEqual(['1', '2', '3', '4']);
    expect(inboxOrder(server, a, false)[0]).toBe(readA);
    // Opened b (older than a): it stays after a.
    expect(ids(inboxOrder([a, c, d, { ...b, unreadCount: 0 }], b, false))).toEqual(['1', '2', '3', '4']);
  });
  it('in Unread puts it back, read, where it was when the server no longer lists it', () => {
    const shown = inboxOrder([b], a, true);
    expect(ids(shown)).toEqual(['1', '2']);
    expect(shown[0]).toMatchObject({ isRead: true, unreadCount: 0 });
    expect(ids(inboxOrder([], a, true))).toEqual(['1']);
  });
  it('elsewhere a conversation the server no longer lists is gone', () => {
    expect(ids(inboxOrder([b, c], a, false))).toEqual(['2', '3']);
  });
  it('breaks a tie in time by id, as the server does (a longer id is larger)', () => {
    const x = row('10', 100, 1);
    const y = row('9', 100, 1);
    expect(ids(inboxOrder([y], x, true))).toEqual(['10', '9']);
    expect(ids(inboxOrder([x], y, true))).toEqual(['10', '9']);
  });
});

describe('filterConversations', () => {
  const list = [
    { contactName: 'Ann Lee', receiver: '13105550101' },
    { contactName: '', receiver: '13105550202' },
    { contactName: 'Bob', receiver: '14155550303' },
  ];
  it('keeps everything for an empty search', () => {
    expect(filterConversations(list, '  ')).toHaveLength(3);
  });
  it('finds by name, case-insensitively', () => {
    expect(filterConversations(list, 'ann').map((x) => x.receiver)).toEqual(['13105550101']);
  });
  it('finds by number, also written with spaces, dashes and brackets', () => {
    expect(filterConversations(list, '0202').map((x) => x.receiver)).toEqual(['13105550202']);
    expect(filterConversations(list, '+1 (415) 555').map((x) => x.receiver)).toEqual(['14155550303']);
  });
  it('finds nothing for an unknown term', () => {
    expect(filterConversations(list, 'zed')).toEqual([]);
  });
});

describe('displayText (docs/product.md#forms: control characters stripped)', () => {
  it('removes C0/C1 controls, DEL, NUL and bidi overrides; keeps line breaks, tabs and emoji', () => {
    expect(displayText('a\u0000b\u0007c\u001Bd\u007Fe\u0085f')).toBe('abcdef');
    expect(displayText('line 1\r\nline 2\rline 3\n\tx')).toBe('line 1\nline 2\nline 3\n\tx');
    expect(displayText('pay \u202Egnp.exe')).toBe('pay gnp.exe');
    expect(displayText('Xin chào 👋 👨‍👩‍👧')).toBe('Xin chào 👋 👨‍👩‍👧');
  });
  it('replaces a lone surrogate (contract cleanText) and accepts missing text', () => {
    expect(displayText('a\uD800b')).toBe('a\uFFFDb');
    expect(displayText(null)).toBe('');
  });
  it('previewText folds the text to one line', () => {
    expect(previewText('  hello\n\nworld\t! ')).toBe('hello world !');
  });
});

describe('conversationTitle', () => {
  it('is the contact name, else the number as people read it', () => {
    expect(conversationTitle({ contactName: ' Ann ', receiver: '13105550101' })).toBe('Ann');
    expect(conversationTitle({ contactName: '', receiver: '13105550101' })).toBe('+1 310-555-0101');
    expect(conversationTitle({ contactName: '\u0007', receiver: '1310' })).toBe('1310');
  });
});

describe('media and attachments', () => {
  it('plays .mp4 as video and shows anything else as an image', () => {
    expect(mediaKind('abc.mp4')).toBe('video');
    expect(mediaKind('abc.MP4')).toBe('video');
    expect(mediaKind('abc.jpg')).toBe('image');
    expect(mediaKind('abc')).toBe('image');
  });
  it('offers images and MP4 only (by type, or by name when the browser gives no type)', () => {
    expect(isAttachable({ type: 'image/png', name: 'a.png' })).toBe(true);
    expect(isAttachable({ type: 'video/mp4', name: 'a.mp4' })).toBe(true);
    expect(isAttachable({ type: '', name: 'a.webp' })).toBe(true);
    expect(isAttachable({ type: 'application/pdf', name: 'a.pdf' })).toBe(false);
    expect(isAttachable({ type: 'video/quicktime', name: 'a.mov' })).toBe(false);
    expect(isAttachable({ type: '', name: 'notes.txt' })).toBe(false);
  });
});

describe('scroll rule (docs/product.md#states-and-colours)', () => {
  it('knows when the reader is at the bottom (with a little slack)', () => {
    expect(isAtBottom({ scrollTop: 600, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isAtBottom({ scrollTop: 560, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isAtBottom({ scrollTop: 300, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
  });
  it('scrolls once when a selection first shows, whatever the reader did before', () => {
    expect(
      shouldScrollToBottom({ firstLoadOfSelection: true, lastMessageChanged: false, wasAtBottom: false }),
    ).toBe(true);
  });
  it('follows a new message only while the reader is at the bottom', () => {
    expect(
      shouldScrollToBottom({ firstLoadOfSelection: false, lastMessageChanged: true, wasAtBottom: true }),
    ).toBe(true);
    expect(
      shouldScrollToBottom({ firstLoadOfSelection: false, lastMessageChanged: true, wasAtBottom: false }),
    ).toBe(false);
  });
  it('does not move on a poll that brought nothing new', () => {
    expect(
      shouldScrollToBottom({ firstLoadOfSelection: false, lastMessageChanged: false, wasAtBottom: true }),
    ).toBe(false);
  });
});

describe('displayUrl (under the CSP)', () => {
  it('shows an image as a data: URL', async () => {
    const shown = await displayUrl(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'image');
    expect(shown.url).toBe('data:image/png;base64,AQID');
    shown.revoke();
  });
  it('plays a video from an object URL and revokes it', async () => {
    const created: string[] = [];
    const revoked: string[] = [];
    const orig = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = () => {
      created.push('blob:v');
      return 'blob:v';
    };
    URL.revokeObjectURL = (u: string) => void revoked.push(u);
    try {
      const shown = await displayUrl(new Blob(['x'], { type: 'video/mp4' }), 'video');
      expect(shown.url).toBe('blob:v');
      shown.revoke();
      expect(revoked).toEqual(['blob:v']);
    } finally {
      URL.createObjectURL = orig.create;
      URL.revokeObjectURL = orig.revoke;
    }
  });
});

describe('attachmentProblem: checked when a file is picked, before any upload', () => {
  const file = (name: string, type: string, size: number) => ({ name, type, size });
  it("refuses a picture larger than the server's limit, and takes one at the limit", () => {
    expect(attachmentProblem(file('big.jpg', 'image/jpeg', 12 * 1024 * 1024))).toBe('size');
    expect(attachmentProblem(file('edge.jpg', 'image/jpeg', MMS_MAX_BYTES + 1))).toBe('size');
    expect(attachmentProblem(file('ok.jpg', 'image/jpeg', MMS_MAX_BYTES))).toBeUndefined();
    expect(attachmentProblem(file('clip.mp4', 'video/mp4', 1024))).toBeUndefined();
  });
  it('names a wrong type first, whatever its size', () => {
    expect(attachmentProblem(file('a.pdf', 'application/pdf', 12 * 1024 * 1024))).toBe('type');
  });
});
