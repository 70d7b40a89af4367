import { useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useMessageLogQuery, useTesterSend } from '../api/peer-queries';
import { CurlPreview } from '../components/curl-preview';
import { InlineError } from '../components/feedback';
import { useCurrentInstance } from './instance-page';
import { SendOutcome } from './send-outcome';
import { TextField } from './message-composer';
import { messagePreview } from './message-kinds';
import { SANDBOX_CONTACT } from './sandbox-contact';
import {
  MEDIA_KINDS,
  TESTER_KINDS,
  TESTER_LIMITS,
  checkTesterDraft,
  forPreview,
  toTesterRequest,
  type PickedFile,
  type TesterDraft,
  type TesterKind,
} from './tester-rules';

const KIND_LABELS: Record<TesterKind, string> = {
  image: 'Image',
  video: 'Video',
  audio: 'Audio',
  document: 'Document',
  location: 'Location',
  contact: 'Contact',
  reaction: 'Reaction',
};

const initialDraft = (to: string, messageId: string): TesterDraft => ({
  kind: messageId ? 'reaction' : 'image',
  to,
  source: 'url',
  url: 'https://example.com/photo.jpg',
  file: null,
  caption: '',
  filename: 'report.pdf',
  latitude: '51.5034',
  longitude: '-0.1276',
  placeName: '',
  address: '',
  displayName: 'Jane Doe',
  vcard: '',
  messageId,
  emoji: '👍',
});

function readFile(file: File): Promise<PickedFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve({ name: file.name, type: file.type, size: file.size, data: url.slice(url.indexOf(',') + 1) });
    };
    reader.readAsDataURL(file);
  });
}

/** Every other kind the API sends: media by URL or upload, a location, a contact card, a reaction to a message. */
export function MessageTester() {
  const instance = useCurrentInstance();
  const [params] = useSearchParams();
  const send = useTesterSend(instance.id);
  const [draft, setDraft] = useState<TesterDraft>(() =>
    initialDraft(params.get('to') ?? (instance.sandbox ? SANDBOX_CONTACT : ''), params.get('react') ?? ''),
  );
  const [touched, setTouched] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const problems = useMemo(() => checkTesterDraft(draft), [draft]);
  const valid = Object.keys(problems).length === 0;
  const request = toTesterRequest(draft);
  const set = (patch: Partial<TesterDraft>) => {
    setDraft({ ...draft, ...patch });
    send.reset();
  };

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(null);
    if (!file) return set({ file: null });
    try {
      const picked = await readFile(file);
      setDraft((current) => ({ ...current, file: picked, filename: current.kind === 'document' ? picked.name : current.filename }));
      send.reset();
    } catch {
      setFileError('The file could not be read; choose it again.');
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!valid) return;
    if (draft.kind === 'reaction') send.mutate({ kind: 'reaction', messageId: draft.messageId.trim(), body: request.body });
    else send.mutate({ kind: draft.kind, body: request.body });
  };

  const media = MEDIA_KINDS.includes(draft.kind);
  return (
    <form className="card" onSubmit={submit} aria-labelledby="tester-title" noValidate>
      <h2 id="tester-title">Test every kind</h2>
      <p className="muted small">Media, places, contact cards and reactions, through the same API routes your code calls.</p>
      <fieldset className="segmented">
        <legend>Kind</legend>
        {TESTER_KINDS.map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name="tester-kind"
              checked={draft.kind === kind}
              onChange={() => {
                // A new kind is a new form: its problems show as typed, the summary only after its own send.
                setTouched(false);
                set({ kind });
              }}
            />{' '}
            {KIND_LABELS[kind]}
          </label>
        ))}
      </fieldset>
      <TextField
        label={draft.kind === 'reaction' ? 'Chat' : 'Recipient'}
        path="to"
        value={draft.to}
        problems={problems}
        onChange={(to) => set({ to })}
        hint="International number, e.g. 14155550123"
      />
      {media && (
        <>
          <fieldset className="segmented">
            <legend>File from</legend>
            <label>
              <input type="radio" name="tester-source" checked={draft.source === 'url'} onChange={() => set({ source: 'url' })} /> A URL
            </label>
            <label>
              <input type="radio" name="tester-source" checked={draft.source === 'file'} onChange={() => set({ source: 'file' })} /> An
              upload
            </label>
          </fieldset>
          {draft.source === 'url' ? (
            <TextField
              label="File URL"
              path="url"
              value={draft.url}
              problems={problems}
              onChange={(url) => set({ url })}
              hint="The gateway downloads it (public http(s) addresses, up to 50 MB)"
            />
          ) : (
            <label className="field">
              <span className="field-label">File</span>
              <input
                type="file"
                accept={draft.kind === 'document' ? undefined : `${draft.kind}/*`}
                aria-invalid={problems.data ? true : undefined}
                aria-describedby={problems.data ? 'problem-data' : undefined}
                onChange={(event) => void pick(event)}
              />
              {draft.file && !problems.data && (
                <small className="hint">
                  {draft.file.name} · {draft.file.type || 'type unknown'} · {Math.ceil(draft.file.size / 1024)} KB
                </small>
              )}
              {problems.data && (
                <small className="inline-error" id="problem-data">
                  File {problems.data}
                </small>
              )}
              <InlineError>{fileError}</InlineError>
            </label>
          )}
          {draft.kind === 'document' && (
            <TextField
              label="File name"
              path="filename"
              value={draft.filename}
              max={TESTER_LIMITS.MAX_FILENAME_CHARS}
              problems={problems}
              onChange={(filename) => set({ filename })}
            />
          )}
          {draft.kind !== 'audio' && (
            <TextField
              label="Caption"
              path="caption"
              multiline
              value={draft.caption}
              max={TESTER_LIMITS.MAX_CAPTION_CHARS}
              problems={problems}
              onChange={(caption) => set({ caption })}
            />
          )}
        </>
      )}
      {draft.kind === 'location' && (
        <>
          <div className="two-col">
            <TextField
              label="Latitude"
              path="latitude"
              value={draft.latitude}
              problems={problems}
              onChange={(latitude) => set({ latitude })}
            />
            <TextField
              label="Longitude"
              path="longitude"
              value={draft.longitude}
              problems={problems}
              onChange={(longitude) => set({ longitude })}
            />
          </div>
          <TextField
            label="Place name"
            path="name"
            value={draft.placeName}
            max={TESTER_LIMITS.MAX_LOCATION_NAME_CHARS}
            problems={problems}
            onChange={(placeName) => set({ placeName })}
          />
          <TextField
            label="Address"
            path="address"
            value={draft.address}
            max={TESTER_LIMITS.MAX_LOCATION_ADDRESS_CHARS}
            problems={problems}
            onChange={(address) => set({ address })}
          />
        </>
      )}
      {draft.kind === 'contact' && (
        <>
          <TextField
            label="Display name"
            path="displayName"
            value={draft.displayName}
            max={TESTER_LIMITS.MAX_DISPLAY_NAME_CHARS}
            problems={problems}
            onChange={(displayName) => set({ displayName })}
            hint="The gateway writes the vCard from it, unless you give one below"
          />
          <TextField
            label="vCard (optional)"
            path="vcard"
            multiline
            value={draft.vcard}
            problems={problems}
            onChange={(vcard) => set({ vcard })}
          />
        </>
      )}
      {draft.kind === 'reaction' && <ReactionFields draft={draft} set={set} problems={problems} />}
      <SendOutcome
        label={`Send ${KIND_LABELS[draft.kind].toLowerCase()}`}
        pending={send.isPending}
        problems={problems}
        touched={touched}
        error={send.error}
        sentId={send.data?.id}
        sandbox={instance.sandbox}
      />
      <CurlPreview request={{ method: 'POST', path: request.path, instanceId: instance.id, body: forPreview(request.body) }} />
    </form>
  );
}

type Problems = ReturnType<typeof checkTesterDraft>;

/** The message to react to: picked from the chat's recent history, or typed. */
function ReactionFields({ draft, set, problems }: { draft: TesterDraft; set: (patch: Partial<TesterDraft>) => void; problems: Problems }) {
  const instance = useCurrentInstance();
  const log = useMessageLogQuery(instance.id);
  const digits = draft.to.replace(/[^\d]/g, '');
  const recent = useMemo(
    () =>
      (log.data?.pages.flatMap((page) => page.messages) ?? [])
        .filter(
          (item) =>
            item.message.type !== 'reaction' &&
            (draft.to.includes('@') ? item.message.chatId === draft.to.trim() : item.message.chatId.startsWith(`${digits}@`)),
        )
        .slice(0, 20),
    [log.data, draft.to, digits],
  );
  return (
    <>
      <label className="field">
        <span className="field-label">Recent messages in this chat</span>
        <select
          value={recent.some((item) => item.message.id === draft.messageId) ? draft.messageId : ''}
          onChange={(event) => set({ messageId: event.target.value })}
        >
          <option value="">{recent.length === 0 ? 'No messages with this chat in the log' : 'Pick a message…'}</option>
          {recent.map((item) => (
            <option key={item.seq} value={item.message.id}>
              {item.message.sender.isMe ? 'You' : 'They'}: {messagePreview(item.message).slice(0, 60)}
            </option>
          ))}
        </select>
      </label>
      <TextField
        label="Message id"
        path="messageId"
        value={draft.messageId}
        problems={problems}
        onChange={(messageId) => set({ messageId })}
      />
      <TextField
        label="Emoji"
        path="reaction"
        value={draft.emoji}
        problems={problems}
        onChange={(emoji) => set({ emoji })}
        hint="Leave empty to remove your reaction"
      />
    </>
  );
}
