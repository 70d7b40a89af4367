import { useEffect, useMemo, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useChatsQuery, useMessageLogQuery } from '../api/peer-queries';
import type { LoggedMessage } from '../api/peer-types';
import { Avatar } from '../components/avatar';
import { EmptyState, ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { describeError } from '../api/http';
import { summarizeChats, type ChatSummary } from './chat-summaries';
import { useCurrentInstance } from './instance-page';
import { MessageBubble } from './message-bubble';
import { messagePreview } from './message-kinds';

const shortTime = (iso: string | undefined) => {
  if (!iso) return '';
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString()
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString();
};

/** The instance's chats beside the open chat's history; both follow the log while the page is shown. */
export function ChatsView() {
  const instance = useCurrentInstance();
  const connected = instance.status === 'connected';
  const chats = useChatsQuery(instance.id);
  const log = useMessageLogQuery(instance.id);
  const [params, setParams] = useSearchParams();
  const open = params.get('chat');
  const messages = useMemo(() => log.data?.pages.flatMap((page) => page.messages) ?? [], [log.data]);
  const summaries = useMemo(() => summarizeChats(chats.data ?? [], messages), [chats.data, messages]);
  const selected = summaries.find((summary) => summary.id === open);

  if (!connected && chats.error) {
    return (
      <div className="card">
        <p className="notice">
          The instance is not connected, so its chats cannot be read. <Link to="../pairing">Pair it</Link>.
        </p>
      </div>
    );
  }
  return (
    <div className={`chats-layout ${selected ? 'chat-open' : ''}`}>
      <section className="card chat-list-card" aria-labelledby="chats-title">
        <div className="row spread">
          <h2 id="chats-title">Chats</h2>
          <span className="muted small">updates every few seconds</span>
        </div>
        {chats.isPending || log.isPending ? (
          <LoadingBlock label="Loading chats" />
        ) : chats.error ? (
          <ErrorNotice error={chats.error} onRetry={() => void chats.refetch()} />
        ) : summaries.length === 0 ? (
          <EmptyState title="No chats yet">Messages this instance sends or receives start chats here.</EmptyState>
        ) : (
          <ul className="chat-list" aria-label="Chats">
            {summaries.map((summary) => (
              <ChatListEntry
                key={summary.id}
                summary={summary}
                active={summary.id === open}
                onOpen={() => setParams({ chat: summary.id })}
              />
            ))}
          </ul>
        )}
        {log.error && <InlineError>Message history unavailable: {describeError(log.error)}</InlineError>}
      </section>
      {selected ? (
        <ChatHistory summary={selected} messages={messages} log={log} onClose={() => setParams({})} />
      ) : (
        <section className="card chat-history-card chat-placeholder" aria-label="Message history">
          <EmptyState title="Pick a chat">Its messages show here, newest at the bottom.</EmptyState>
        </section>
      )}
    </div>
  );
}

function ChatListEntry({ summary, active, onOpen }: { summary: ChatSummary; active: boolean; onOpen: () => void }) {
  const last = summary.last?.message;
  return (
    <li>
      <button type="button" className={`chat-entry ${active ? 'active' : ''}`} aria-current={active ? 'true' : undefined} onClick={onOpen}>
        <Avatar name={summary.name} size={40} />
        <span className="chat-entry-text">
          <span className="chat-entry-top">
            <span className="chat-entry-name">{summary.name}</span>
            <time className="muted small" dateTime={summary.activity}>
              {shortTime(summary.activity)}
            </time>
          </span>
          <span className="chat-entry-bottom">
            <span className="chat-entry-last muted small">
              {last ? `${last.sender.isMe ? 'You: ' : ''}${messagePreview(last)}` : 'No messages in the log'}
            </span>
            {summary.unread > 0 && (
              <span className="unread" aria-label={`${summary.unread} unread`} title="Incoming messages since your last message">
                {summary.unread}
              </span>
            )}
          </span>
        </span>
      </button>
    </li>
  );
}

type MessageLog = ReturnType<typeof useMessageLogQuery>;

function ChatHistory({
  summary,
  messages,
  log,
  onClose,
}: {
  summary: ChatSummary;
  messages: LoggedMessage[];
  log: MessageLog;
  onClose: () => void;
}) {
  const history = useMemo(
    () => messages.filter((item) => item.message.chatId === summary.id && !item.message.isStatus).sort((a, b) => a.seq - b.seq),
    [messages, summary.id],
  );
  const end = useRef<HTMLDivElement>(null);
  const newest = history.at(-1)?.seq;
  // Keep the newest message in view when the chat opens and when a new one arrives.
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [newest, summary.id]);
  return (
    <section className="card chat-history-card" aria-labelledby="history-title">
      <div className="row spread chat-history-head">
        <div className="row">
          <Avatar name={summary.name} size={36} />
          <div>
            <h2 id="history-title">{summary.name}</h2>
            <div className="muted small mono">{summary.id}</div>
          </div>
        </div>
        <button type="button" className="button button-quiet" onClick={onClose}>
          Back to chats
        </button>
      </div>
      <div className="history-scroll">
        {log.hasNextPage && (
          <div className="row load-older">
            <button type="button" className="button" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
              {log.isFetchingNextPage ? 'Loading…' : 'Load older messages'}
            </button>
          </div>
        )}
        {history.length === 0 ? (
          <EmptyState title="No messages in the log">Older messages may have passed the event log's retention time.</EmptyState>
        ) : (
          <ol className="history" aria-label={`Messages with ${summary.name}`}>
            {history.map((item) => (
              <MessageBubble key={item.seq} item={item} />
            ))}
          </ol>
        )}
        <div ref={end} />
      </div>
    </section>
  );
}
