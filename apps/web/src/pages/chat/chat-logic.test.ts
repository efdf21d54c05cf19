import { describe, expect, it } from 'vitest';
import {
  conversationTitle,
  displayText,
  displayUrl,
  filterConversations,
  isAtBottom,
  isAttachable,
  mediaKind,
  pickSelection,
  previewText,
  shouldScrollToBottom,
  unreadOf,
  unreadTotal,
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
  it('totals every conversation (the sidebar badge); nothing loaded is 0', () => {
    expect(unreadTotal([{ isRead: false, unreadCount: 2 }, { isRead: true }, { isRead: false }])).toBe(3);
    expect(unreadTotal(undefined)).toBe(0);
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
  it('is the contact name, else the number', () => {
    expect(conversationTitle({ contactName: ' Ann ', receiver: '1310' })).toBe('Ann');
    expect(conversationTitle({ contactName: '', receiver: '1310' })).toBe('1310');
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
