import { SseParser, type SseMessage } from './sse-parser.js';

const STREAM =
  'id: 41\ndata: {"a":1}\n\n: keep-alive\n\nid: 42\nevent: gap\ndata: {"firstMissing":40,"oldestKept":43}\n\n' +
  'retry: 2500\nid: 43\ndata: line one\ndata: line two\n\n';

const EXPECTED: SseMessage[] = [
  { id: '41', event: 'message', data: '{"a":1}' },
  { id: '42', event: 'gap', data: '{"firstMissing":40,"oldestKept":43}' },
  { id: '43', event: 'message', data: 'line one\nline two', retry: 2500 },
];

function parseInChunks(text: string, cuts: number[]): SseMessage[] {
  const parser = new SseParser();
  const messages: SseMessage[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    messages.push(...parser.push(text.slice(from, cut)));
    from = cut;
  }
  return messages;
}

describe('SseParser', () => {
  it('reads ids, event names, multi-line data and retry, and skips comments', () => {
    expect(parseInChunks(STREAM, [])).toEqual(EXPECTED);
  });

  it('gives the same messages however the network cuts the text, one character at a time included', () => {
    expect(
      parseInChunks(
        STREAM,
        Array.from({ length: STREAM.length }, (_, index) => index),
      ),
    ).toEqual(EXPECTED);
    for (let cut = 1; cut < STREAM.length; cut += 1) expect(parseInChunks(STREAM, [cut])).toEqual(EXPECTED);
  });

  it('takes CRLF and lone CR line ends, also when a CRLF is split between chunks', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    expect(parseInChunks(crlf, [crlf.indexOf('\r') + 1])).toEqual(EXPECTED);
    expect(parseInChunks(STREAM.replace(/\n/g, '\r'), [7, 19])).toEqual(EXPECTED);
  });

  it('dispatches nothing for a message cut off before its blank line', () => {
    expect(parseInChunks('id: 7\ndata: half', [])).toEqual([]);
  });
});
