import { toCurl, type CurlRequest } from '../api/curl';
import { CopyButton } from './copy-button';

/** "Copy as code": the API call a form makes, as curl, with the key left as $MGW_API_KEY. */
export function CurlPreview({ request }: { request: CurlRequest }) {
  const command = toCurl(request);
  return (
    <details className="curl">
      <summary>Show as curl</summary>
      <pre aria-label="curl command">{command}</pre>
      <div className="curl-actions">
        <CopyButton text={command} label="Copy curl" />
        <span className="muted">Set MGW_API_KEY to your customer key first.</span>
      </div>
    </details>
  );
}
