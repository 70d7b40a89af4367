import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { apiRequest, describeError } from '../api/http';
import { keys, useInboxQuery, useOutboxQuery, useSandboxInbound, useSandboxReceipt } from '../api/queries';
import { followLiveFeed, type LiveFeed } from '../api/live-socket';
import type { InboxEntryDto as InboxEntry, OutboxEntryDto as OutboxEntry } from '@messaging-gateway/client';
import { CurlPreview } from '../components/curl-preview';
import { EmptyState, ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { useCurrentInstance } from './instance-page';
import { SANDBOX_CONTACT } from './sandbox-contact';

type ChatItem = { direction: 'from-gateway'; entry: OutboxEntry } | { direction: 'from-contact'; entry: InboxEntry };
type Button = { type?: string; id?: string; text?: string; url?: string };
type Section = { title?: string; rows?: Array<{ id: string; title: string; description?: string }> };

const jidOf = (phone: string) => `${phone.replace(/[^\d]/g, '')}@s.whatsapp.net`;

/** Refreshes the phone's view whenever the instance logs an event (a send, a receipt, a tap), not on a timer. */
function useRefreshOnEvents(instanceId: string): void {
  const client = useQueryClient();
  useEffect(() => {
    const abort = new AbortController();
    let pending: ReturnType<typeof setTimeout> | undefined;
    const feed: LiveFeed = { stream: 'events', instanceId };
    followLiveFeed(feed, {
      signal: abort.signal,
      onMessage: () => {
        clearTimeout(pending);
        pending = setTimeout(() => {
          void client.invalidateQueries({ queryKey: keys.outbox(instanceId) });
          void client.invalidateQueries({ queryKey: keys.inbox(instanceId) });
        }, 150);
      },
    });
    return () => {
      clearTimeout(pending);
      abort.abort();
    };
  }, [client, instanceId]);
}

export function SandboxPhone() {
  const instance = useCurrentInstance();
  const [contact, setContact] = useState(SANDBOX_CONTACT);
  const [draftContact, setDraftContact] = useState(SANDBOX_CONTACT);
  if (!instance.sandbox)
    return <EmptyState title="Only sandbox instances have a simulated phone">A real instance talks to real phones.</EmptyState>;
  return (
    <div className="phone-layout">
      <div className="stack">
        <form
          className="card"
          aria-labelledby="contact-title"
          onSubmit={(event) => {
            event.preventDefault();
            setContact(draftContact.replace(/[^\d]/g, ''));
          }}
        >
          <h2 id="contact-title">Play a contact</h2>
          <p className="muted small">
            The simulated phone belongs to this contact: it shows what your instance sent them, lets them tap buttons and list rows, and
            type back. Send to <span className="mono">{contact}</span> from the <Link to="../compose">composer</Link>.
          </p>
          <label className="field">
            <span>Contact number</span>
            <input inputMode="tel" value={draftContact} onChange={(event) => setDraftContact(event.target.value)} />
          </label>
          <button type="submit" className="button" disabled={draftContact.replace(/[^\d]/g, '') === contact}>
            Switch contact
          </button>
        </form>
        <CurlPreview
          request={{
            method: 'POST',
            path: '/sandbox/inbound',
            instanceId: instance.id,
            body: { from: contact, type: 'text', text: 'Hello' },
          }}
        />
      </div>
      <Phone key={contact} contact={contact} />
    </div>
  );
}

function Phone({ contact }: { contact: string }) {
  const instance = useCurrentInstance();
  const outbox = useOutboxQuery(instance.id);
  const inbox = useInboxQuery(instance.id);
  // null while registering or once registered; the API's detail when the contact could not be registered.
  const [registrationError, setRegistrationError] = useState<string | null>(null);
  useRefreshOnEvents(instance.id);
  useEffect(() => {
    // The contact must be on the simulated network for sends to reach them; registering twice only updates them.
    apiRequest('/sandbox/users', { method: 'POST', instanceId: instance.id, body: { phone: contact, pushName: 'Sandbox contact' } }).then(
      () => setRegistrationError(null),
      (error: unknown) => setRegistrationError(describeError(error)),
    );
  }, [instance.id, contact]);

  const jid = jidOf(contact);
  const chat = useMemo<ChatItem[]>(() => {
    const sent = (outbox.data ?? []).filter((entry) => entry.to === jid).map((entry) => ({ direction: 'from-gateway' as const, entry }));
    const received = (inbox.data ?? [])
      .filter((entry) => entry.from === jid || entry.chatId === jid)
      .map((entry) => ({ direction: 'from-contact' as const, entry }));
    return [...sent, ...received].sort((a, b) => a.entry.receivedAt.localeCompare(b.entry.receivedAt));
  }, [outbox.data, inbox.data, jid]);

  return (
    <section className="phone" aria-label="Sandbox phone">
      <div className="phone-notch" aria-hidden="true" />
      <header className="phone-bar">
        <span className="phone-avatar" aria-hidden="true">
          {instance.name.slice(0, 1).toUpperCase()}
        </span>
        <div>
          <div className="phone-title">{instance.name}</div>
          <div className="phone-subtitle">{instance.status === 'connected' ? 'online' : instance.status}</div>
        </div>
      </header>
      <Conversation
        chat={chat}
        contact={contact}
        loading={outbox.isPending || inbox.isPending}
        error={outbox.error ?? inbox.error}
        retry={() => void outbox.refetch()}
      />
      {registrationError && <InlineError>Contact not registered: {registrationError}</InlineError>}
      <ReplyBox contact={contact} />
    </section>
  );
}

function Conversation({
  chat,
  contact,
  loading,
  error,
  retry,
}: {
  chat: ChatItem[];
  contact: string;
  loading: boolean;
  error: unknown;
  retry: () => void;
}) {
  const end = useRef<HTMLDivElement>(null);
  // Braces matter: newer browsers return a promise from scrollIntoView, and an effect may only return a cleanup.
  useEffect(() => {
    void end.current?.scrollIntoView({ block: 'end' });
  }, [chat.length]);
  return (
    <div className="phone-chat" role="log" aria-label="Chat" aria-live="polite">
      {loading ? (
        <LoadingBlock label="Opening the chat" />
      ) : error ? (
        <ErrorNotice error={error} onRetry={retry} />
      ) : chat.length === 0 ? (
        <p className="phone-empty">No messages yet. Send one to {contact} from the composer, or type below as the contact.</p>
      ) : (
        chat.map((item) =>
          item.direction === 'from-gateway' ? (
            <GatewayMessage key={item.entry.id} entry={item.entry} contact={contact} />
          ) : (
            <ContactMessage key={item.entry.id} entry={item.entry} />
          ),
        )
      )}
      <div ref={end} />
    </div>
  );
}

/**
 * Messages this browser tab already reported read (kept in sessionStorage, so reloading or reopening the phone does not
 * report them again, as a real phone reads a message once).
 */
const readReceipts = {
  key: (messageId: string) => `mgw-dashboard:read:${messageId}`,
  has(messageId: string): boolean {
    try {
      return sessionStorage.getItem(this.key(messageId)) !== null;
    } catch {
      return false;
    }
  },
  add(messageId: string): void {
    try {
      sessionStorage.setItem(this.key(messageId), '1');
    } catch {
      // Storage refused (private mode, quota): the receipt may be sent again on a reload, which is harmless.
    }
  },
};

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** A message the instance sent, as the contact's phone shows it, with its buttons and list tappable. */
function GatewayMessage({ entry, contact }: { entry: OutboxEntry; contact: string }) {
  const instance = useCurrentInstance();
  const tap = useSandboxInbound(instance.id);
  const receipt = useSandboxReceipt(instance.id);
  const [listOpen, setListOpen] = useState(false);
  const content = entry.content;
  const buttons = (content.buttons as Button[] | undefined) ?? [];
  const sections = (content.sections as Section[] | undefined) ?? [];
  const text = typeof content.text === 'string' ? content.text : typeof content.caption === 'string' ? content.caption : `[${entry.type}]`;

  // The contact's phone reads what it shows: one read receipt per message, as the real app sends when the chat is open.
  const [readBefore] = useState(() => readReceipts.has(entry.id));
  const { mutate: sendReceipt } = receipt;
  useEffect(() => {
    if (readReceipts.has(entry.id)) return;
    readReceipts.add(entry.id);
    sendReceipt({ messageId: entry.id, status: 'read' });
  }, [entry.id, sendReceipt]);

  return (
    <div className="phone-message in">
      <div className="phone-bubble">
        {typeof content.header === 'string' && <div className="bubble-header">{content.header}</div>}
        <div className="bubble-text">{content.deleted === true ? <em>This message was deleted</em> : text}</div>
        {typeof content.footer === 'string' && <div className="bubble-footer">{content.footer}</div>}
        <div className="phone-meta">
          {time(entry.receivedAt)}
          {(readBefore || receipt.isSuccess) && <span className="read-mark"> · read</span>}
        </div>
      </div>
      {buttons.map((button, index) => (
        <button
          key={`${button.id ?? index}`}
          type="button"
          className="phone-button"
          disabled={tap.isPending || (button.type ?? 'reply') !== 'reply'}
          onClick={() => tap.mutate({ from: contact, type: 'button_reply', replyTo: entry.id, buttonId: button.id })}
        >
          {button.text}
        </button>
      ))}
      {sections.length > 0 && (
        <button type="button" className="phone-button" aria-expanded={listOpen} onClick={() => setListOpen(!listOpen)}>
          ☰ {typeof content.buttonText === 'string' ? content.buttonText : 'Options'}
        </button>
      )}
      {listOpen && (
        <div
          className="phone-sheet"
          role="group"
          aria-label={`Choices of ${typeof content.buttonText === 'string' ? content.buttonText : 'the list'}`}
        >
          {sections.map((section, sectionIndex) => (
            <div key={sectionIndex}>
              {section.title && <div className="list-section-title">{section.title}</div>}
              {(section.rows ?? []).map((row) => (
                <button
                  key={row.id}
                  type="button"
                  className="phone-row"
                  disabled={tap.isPending}
                  onClick={() =>
                    tap.mutate(
                      { from: contact, type: 'list_reply', replyTo: entry.id, rowId: row.id },
                      { onSuccess: () => setListOpen(false) },
                    )
                  }
                >
                  <span>{row.title}</span>
                  {row.description && <span className="muted small">{row.description}</span>}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
      {tap.error && <InlineError>{describeError(tap.error)}</InlineError>}
    </div>
  );
}

/** A message the contact sent (typed, or a tap), on the contact's own side of the chat. */
function ContactMessage({ entry }: { entry: InboxEntry }) {
  const content = entry.content;
  const reply = content.buttonReply as { text?: string; id?: string } | undefined;
  const row = content.listReply as { title?: string; id?: string } | undefined;
  const text = reply
    ? (reply.text ?? reply.id)
    : row
      ? (row.title ?? row.id)
      : typeof content.text === 'string'
        ? content.text
        : `[${entry.type}]`;
  return (
    <div className="phone-message out">
      <div className="phone-bubble">
        {(reply || row) && <div className="bubble-quote">{reply ? 'Tapped a button' : 'Chose from the list'}</div>}
        <div className="bubble-text">{text}</div>
        <div className="phone-meta">
          {time(entry.receivedAt)} <span aria-label="sent">✓✓</span>
        </div>
      </div>
    </div>
  );
}

function ReplyBox({ contact }: { contact: string }) {
  const instance = useCurrentInstance();
  const inbound = useSandboxInbound(instance.id);
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    inbound.mutate({ from: contact, type: 'text', text }, { onSuccess: () => setText('') });
  };
  return (
    <form className="phone-input" onSubmit={submit}>
      <label className="sr-only" htmlFor="phone-message">
        Message as the contact
      </label>
      <input id="phone-message" placeholder="Message" value={text} maxLength={4096} onChange={(event) => setText(event.target.value)} />
      <button type="submit" className="phone-send" aria-label="Send as the contact" disabled={inbound.isPending || !text.trim()}>
        ➤
      </button>
      {inbound.error && <InlineError>{describeError(inbound.error)}</InlineError>}
    </form>
  );
}
