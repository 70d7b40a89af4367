import type { Draft } from './message-rules';

/** How the recipient's phone will show the message: a chat bubble with its buttons or list opener. */
export function MessagePreview({ draft }: { draft: Draft }) {
  return (
    <figure className="preview" aria-label="Message preview">
      <figcaption className="muted small">Preview</figcaption>
      <div className="chat-surface">
        <div className="bubble bubble-out">
          {draft.kind !== 'text' && draft.header && <div className="bubble-header">{draft.header}</div>}
          <div className="bubble-text">{draft.text || <span className="muted">Your message</span>}</div>
          {draft.kind !== 'text' && draft.footer && <div className="bubble-footer">{draft.footer}</div>}
        </div>
        {draft.kind === 'buttons' &&
          draft.buttons.map((button, index) => (
            <div key={index} className="bubble-button">
              {button.text || '…'}
            </div>
          ))}
        {draft.kind === 'list' && (
          <>
            <div className="bubble-button">☰ {draft.listButtonText || '…'}</div>
            <div className="list-sheet">
              {draft.sections.map((section, sectionIndex) => (
                <div key={sectionIndex}>
                  {section.title && <div className="list-section-title">{section.title}</div>}
                  {section.rows.map((row, rowIndex) => (
                    <div key={rowIndex} className="list-row">
                      <div>{row.title || '…'}</div>
                      {row.description && <div className="muted small">{row.description}</div>}
                    </div>
                  ))}
                </div>
              ))}
            </div>
          </>
        )}
      </div>
    </figure>
  );
}
