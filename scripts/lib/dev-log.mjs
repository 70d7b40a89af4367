// `npm run dev`'s log lines: one short line per log record instead of pino-pretty's block per object. Requests the
// web console makes for itself (its session cookie marks them `client: console`) are not shown unless they failed,
// so the banner stays findable while someone clicks through the dashboard. DEV_LOG=pretty or DEV_LOG=json shows
// everything as pino-pretty or as raw JSON.

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Nest's start-up chatter (a line per module and per route, some 200): hidden in dev, where the banner must stay findable. */
const NEST_BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

const clock = (time) => new Date(typeof time === 'number' ? time : Date.now()).toTimeString().slice(0, 8);

/** One log line of an app as `npm run dev` prints it, or null when it is not worth a line. */
export function formatDevLogLine(raw) {
  let record;
  try {
    record = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (record === null || typeof record !== 'object') return raw;
  const time = clock(record.time);
  if (record.req && record.res) {
    const { statusCode } = record.res;
    if (record.req.client === 'console' && statusCode < 400) return null;
    const took = typeof record.responseTime === 'number' ? ` ${record.responseTime} ms` : '';
    const aborted = record.msg === 'request aborted' ? ' (aborted)' : '';
    return `${time} ${statusCode} ${record.req.method} ${record.req.url}${took}${aborted}`;
  }
  if (record.level <= 30 && NEST_BOOT_CONTEXTS.has(record.context)) return null;
  const level = LEVELS[record.level] ?? String(record.level ?? 'INFO');
  const error = record.err && typeof record.err === 'object' ? record.err : null;
  let line = `${time} ${level.padEnd(5)} ${record.msg ?? ''}${error?.message ? `: ${error.message}` : ''}`;
  // A gateway error keeps its stack: that is when someone will want it.
  if (record.level >= 50 && typeof error?.stack === 'string') line += `\n${error.stack.split('\n').slice(1).join('\n')}`;
  return line;
}
