import { Link } from 'react-router';
import { describeError } from '../api/http';
import { InlineError } from '../components/feedback';

interface Props {
  label: string;
  pending: boolean;
  /** Field path → what is wrong with it, from the same checks the API makes. */
  problems: Record<string, string | undefined>;
  /** Whether a send was tried: the summary of problems shows only then. */
  touched: boolean;
  error: unknown;
  sentId: string | undefined;
  sandbox: boolean;
}

/** A send form's button and what became of the send: problems to fix, the API's refusal, or the sent message's id. */
export function SendOutcome({ label, pending, problems, touched, error, sentId, sandbox }: Props) {
  const found = Object.entries(problems).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return (
    <>
      <div className="row">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Sending…' : label}
        </button>
        {found.length > 0 && <span className="inline-error">{found.length} problem(s) to fix before sending</span>}
      </div>
      {touched && found.length > 0 && (
        <InlineError>
          Not sent:{' '}
          {found
            .slice(0, 3)
            .map(([path, problem]) => `${path} ${problem}`)
            .join('; ')}
        </InlineError>
      )}
      {error !== null && error !== undefined && (
        <div className="notice notice-error" role="alert">
          <strong>The API refused the message</strong>
          <p>{describeError(error)}</p>
        </div>
      )}
      {sentId !== undefined && (
        <p className="notice notice-ok" role="status">
          Sent: message <span className="mono">{sentId}</span>
          {sandbox && (
            <>
              {' '}
              · <Link to="../phone">open the sandbox phone</Link>
            </>
          )}
        </p>
      )}
    </>
  );
}
