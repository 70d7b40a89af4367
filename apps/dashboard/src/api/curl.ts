/**
 * What a form's API call looks like as a shell command, with the customer's key masked as $MGW_API_KEY. The key header
 * is double-quoted so the shell expands the variable when pasted; everything else is single-quoted so nothing in a path
 * or body (a `$`, a backquote, a quote) is ever interpreted.
 */
export interface CurlRequest {
  method: string;
  path: string;
  instanceId?: string;
  body?: unknown;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function toCurl(request: CurlRequest, origin = window.location.origin): string {
  const lines = [`curl -X ${request.method} ${quote(origin + request.path)}`, `  -H "X-Api-Key: $MGW_API_KEY"`];
  if (request.instanceId) lines.push(`  -H ${quote(`X-Instance-Id: ${request.instanceId}`)}`);
  if (request.body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d ${quote(JSON.stringify(request.body, null, 2))}`);
  }
  return lines.join(' \\\n');
}
