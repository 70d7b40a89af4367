import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useSendMessage } from '../api/queries';
import { CurlPreview } from '../components/curl-preview';
import { InlineError } from '../components/feedback';
import { useCurrentInstance } from './instance-page';
import { SendOutcome } from './send-outcome';
import { MessagePreview } from './message-preview';
import { LIMITS, checkDraft, toRequestBody, type Draft, type Problems } from './message-rules';
import { SANDBOX_CONTACT } from './sandbox-contact';

const initialDraft = (to: string): Draft => ({
  kind: 'buttons',
  to,
  text: 'Do you confirm the booking?',
  header: '',
  footer: '',
  buttons: [
    { id: 'yes', text: 'Yes' },
    { id: 'no', text: 'No' },
  ],
  listButtonText: 'Choose a slot',
  sections: [{ title: '', rows: [{ id: 'slot-0900', title: '9:00', description: '' }] }],
});

export function MessageComposer() {
  const instance = useCurrentInstance();
  const send = useSendMessage(instance.id);
  const [draft, setDraft] = useState<Draft>(() => initialDraft(instance.sandbox ? SANDBOX_CONTACT : ''));
  const [touched, setTouched] = useState(false);
  const problems = useMemo(() => checkDraft(draft), [draft]);
  const valid = Object.keys(problems).length === 0;
  const body = toRequestBody(draft);
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    send.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!valid) return;
    send.mutate({ kind: draft.kind, body });
  };

  const connected = instance.status === 'connected';
  return (
    <div className="composer-grid">
      <form className="card" onSubmit={submit} aria-labelledby="composer-title" noValidate>
        <h2 id="composer-title">Compose a message</h2>
        {!connected && (
          <p className="notice">
            The instance is not connected; sends are refused until it is. <Link to="../pairing">Pair it</Link>.
          </p>
        )}
        <fieldset className="segmented">
          <legend>Kind</legend>
          {(['text', 'buttons', 'list'] as const).map((kind) => (
            <label key={kind}>
              <input type="radio" name="kind" checked={draft.kind === kind} onChange={() => set({ kind })} />{' '}
              {kind[0].toUpperCase() + kind.slice(1)}
            </label>
          ))}
        </fieldset>
        <TextField
          label="Recipient"
          path="to"
          value={draft.to}
          problems={problems}
          onChange={(to) => set({ to })}
          hint="International number, e.g. 14155550123"
        />
        <TextField
          label="Message text"
          path="text"
          multiline
          value={draft.text}
          max={draft.kind === 'text' ? LIMITS.MAX_TEXT_CHARS : LIMITS.MAX_INTERACTIVE_TEXT_CHARS}
          problems={problems}
          onChange={(text) => set({ text })}
        />
        {draft.kind !== 'text' && (
          <div className="two-col">
            <TextField
              label="Header"
              path="header"
              value={draft.header}
              max={LIMITS.MAX_INTERACTIVE_HEADER_CHARS}
              problems={problems}
              onChange={(header) => set({ header })}
            />
            <TextField
              label="Footer"
              path="footer"
              value={draft.footer}
              max={LIMITS.MAX_INTERACTIVE_FOOTER_CHARS}
              problems={problems}
              onChange={(footer) => set({ footer })}
            />
          </div>
        )}
        {draft.kind === 'buttons' && <ButtonsEditor draft={draft} problems={problems} set={set} />}
        {draft.kind === 'list' && <ListEditor draft={draft} problems={problems} set={set} />}
        <SendOutcome
          label="Send message"
          pending={send.isPending}
          problems={problems}
          touched={touched}
          error={send.error}
          sentId={send.data?.id}
          sandbox={instance.sandbox}
        />
        <CurlPreview request={{ method: 'POST', path: `/messages/${draft.kind}`, instanceId: instance.id, body }} />
      </form>
      <MessagePreview draft={draft} />
    </div>
  );
}

interface TextFieldProps {
  label: string;
  path: string;
  value: string;
  problems: Problems;
  onChange: (value: string) => void;
  max?: number;
  multiline?: boolean;
  hint?: string;
}

export function TextField({ label, path, value, problems, onChange, max, multiline, hint }: TextFieldProps) {
  const problem = problems[path];
  const errorId = `problem-${path.replace(/[^\w]/g, '-')}`;
  const props = {
    value,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? errorId : undefined,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  const count = max !== undefined ? [...value].length : undefined;
  return (
    <label className="field">
      <span className="field-label">
        {label}
        {max !== undefined && (
          <span className={count! > max ? 'counter counter-bad' : 'counter'}>
            {count}/{max}
          </span>
        )}
      </span>
      {multiline ? <textarea rows={3} {...props} /> : <input {...props} />}
      {hint && !problem && <small className="hint">{hint}</small>}
      {problem && (
        <small className="inline-error" id={errorId}>
          {label} {problem}
        </small>
      )}
    </label>
  );
}

function Group({ title, problem, children, action }: { title: string; problem?: string; children: ReactNode; action?: ReactNode }) {
  return (
    <fieldset className="group">
      <legend>{title}</legend>
      {children}
      {problem && <small className="inline-error">{problem}</small>}
      {action}
    </fieldset>
  );
}

function ButtonsEditor({ draft, problems, set }: { draft: Draft; problems: Problems; set: (patch: Partial<Draft>) => void }) {
  const update = (index: number, patch: Partial<Draft['buttons'][number]>) =>
    set({ buttons: draft.buttons.map((button, at) => (at === index ? { ...button, ...patch } : button)) });
  return (
    <Group
      title={`Reply buttons (${draft.buttons.length} of at most ${LIMITS.MAX_BUTTONS})`}
      problem={problems.buttons ? `Buttons ${problems.buttons}` : undefined}
      action={
        <button
          type="button"
          className="button"
          onClick={() => set({ buttons: [...draft.buttons, { id: `option-${draft.buttons.length + 1}`, text: '' }] })}
        >
          Add button
        </button>
      }
    >
      {draft.buttons.map((button, index) => (
        <div key={index} className="two-col with-remove">
          <TextField
            label={`Button ${index + 1} label`}
            path={`buttons[${index}].text`}
            value={button.text}
            max={LIMITS.MAX_BUTTON_TEXT_CHARS}
            problems={problems}
            onChange={(text) => update(index, { text })}
          />
          <TextField
            label={`Button ${index + 1} id`}
            path={`buttons[${index}].id`}
            value={button.id}
            problems={problems}
            onChange={(id) => update(index, { id })}
          />
          <button
            type="button"
            className="button button-quiet"
            aria-label={`Remove button ${index + 1}`}
            onClick={() => set({ buttons: draft.buttons.filter((_, at) => at !== index) })}
          >
            ✕
          </button>
        </div>
      ))}
    </Group>
  );
}

function ListEditor({ draft, problems, set }: { draft: Draft; problems: Problems; set: (patch: Partial<Draft>) => void }) {
  const updateSection = (index: number, patch: Partial<Draft['sections'][number]>) =>
    set({ sections: draft.sections.map((section, at) => (at === index ? { ...section, ...patch } : section)) });
  const totalRows = draft.sections.reduce((total, section) => total + section.rows.length, 0);
  return (
    <>
      <TextField
        label="List button text"
        path="buttonText"
        value={draft.listButtonText}
        max={LIMITS.MAX_LIST_BUTTON_TEXT_CHARS}
        problems={problems}
        onChange={(listButtonText) => set({ listButtonText })}
      />
      {problems.sections && <InlineError>Sections {problems.sections}</InlineError>}
      {draft.sections.map((section, sectionIndex) => (
        <Group
          key={sectionIndex}
          title={`Section ${sectionIndex + 1}`}
          problem={problems[`sections[${sectionIndex}].rows`] ? `Rows ${problems[`sections[${sectionIndex}].rows`]}` : undefined}
          action={
            <div className="row">
              <button
                type="button"
                className="button"
                onClick={() =>
                  updateSection(sectionIndex, { rows: [...section.rows, { id: `row-${totalRows + 1}`, title: '', description: '' }] })
                }
              >
                Add row
              </button>
              {draft.sections.length > 1 && (
                <button
                  type="button"
                  className="button button-quiet"
                  onClick={() => set({ sections: draft.sections.filter((_, at) => at !== sectionIndex) })}
                >
                  Remove section
                </button>
              )}
            </div>
          }
        >
          <TextField
            label={`Section ${sectionIndex + 1} title`}
            path={`sections[${sectionIndex}].title`}
            value={section.title}
            max={LIMITS.MAX_SECTION_TITLE_CHARS}
            problems={problems}
            onChange={(title) => updateSection(sectionIndex, { title })}
          />
          {section.rows.map((row, rowIndex) => {
            const path = `sections[${sectionIndex}].rows[${rowIndex}]`;
            const updateRow = (patch: Partial<typeof row>) =>
              updateSection(sectionIndex, { rows: section.rows.map((item, at) => (at === rowIndex ? { ...item, ...patch } : item)) });
            return (
              <div key={rowIndex} className="three-col with-remove">
                <TextField
                  label={`Row ${rowIndex + 1} title`}
                  path={`${path}.title`}
                  value={row.title}
                  max={LIMITS.MAX_ROW_TITLE_CHARS}
                  problems={problems}
                  onChange={(title) => updateRow({ title })}
                />
                <TextField
                  label={`Row ${rowIndex + 1} id`}
                  path={`${path}.id`}
                  value={row.id}
                  problems={problems}
                  onChange={(id) => updateRow({ id })}
                />
                <TextField
                  label={`Row ${rowIndex + 1} description`}
                  path={`${path}.description`}
                  value={row.description}
                  max={LIMITS.MAX_ROW_DESCRIPTION_CHARS}
                  problems={problems}
                  onChange={(description) => updateRow({ description })}
                />
                <button
                  type="button"
                  className="button button-quiet"
                  aria-label={`Remove row ${rowIndex + 1} of section ${sectionIndex + 1}`}
                  onClick={() => updateSection(sectionIndex, { rows: section.rows.filter((_, at) => at !== rowIndex) })}
                >
                  ✕
                </button>
              </div>
            );
          })}
        </Group>
      ))}
      <button
        type="button"
        className="button"
        onClick={() =>
          set({ sections: [...draft.sections, { title: '', rows: [{ id: `row-${totalRows + 1}`, title: '', description: '' }] }] })
        }
      >
        Add section
      </button>
    </>
  );
}
