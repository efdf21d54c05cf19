import { describe, expect, it } from 'vitest';
import { parseSseChunk } from './sse.ts';

describe('parseSseChunk', () => {
  it('splits complete messages and keeps the tail', () => {
    const { messages, rest } = parseSseChunk(
      'retry: 3000\n: connected\n\nevent: order\ndata: {"id":"1"}\n\nevent: order\ndata: {"id"',
    );
    expect(messages).toEqual([{ event: 'order', data: '{"id":"1"}' }]);
    expect(rest).toBe('event: order\ndata: {"id"');
  });

  it('joins multi-line data, defaults the event name and accepts CRLF', () => {
    const { messages } = parseSseChunk('data: a\r\ndata: b\r\n\r\n');
    expect(messages).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
