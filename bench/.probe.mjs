import * as gw from './gateway.mjs';
const log = (m) => console.error(`probe: ${m}`);
const cleanups = new gw.CleanupStack(log);
const control = new gw.RunControl({ log, budgetMs: 300_000, cleanups });
const processes = [];
try {
  const gateway = await gw.startGateway({ cleanups, control, log, label: 'probe', processes, env: { LOG_LEVEL: 'info' } });
  const { instances } = await gw.pairedInstances(gateway, 1, { control, log });
  const r = await gw.request(`${gateway.apiUrl}/sandbox/inbound/batch`, { method: 'POST', headers: instances[0].headers, body: { messages: [{ from: '447700900123', type: 'text', text: 'a' }, { from: '447700900123', type: 'text', text: 'b', pushName: 'Bob' }] } });
  console.log(r.status, JSON.stringify(r.body));
  await control.sleep(1500);
  const ev = await gateway.db.query('SELECT seq, event_type, data->>\'text\' AS text FROM event_log ORDER BY seq');
  console.log(ev.rows);
  const bad = await gw.request(`${gateway.apiUrl}/sandbox/inbound/batch`, { method: 'POST', headers: instances[0].headers, body: { messages: [{ from: '447700900123', type: 'text', text: 'a' }, { from: 'xx', type: 'text', text: 'b' }] } });
  console.log(bad.status, JSON.stringify(bad.body));
  const bad2 = await gw.request(`${gateway.apiUrl}/sandbox/inbound/batch`, { method: 'POST', headers: instances[0].headers, body: { messages: [{ from: '447700900123', type: 'text' }] } });
  console.log(bad2.status, JSON.stringify(bad2.body));
  gw.logChildOutput(processes, log, 30);
} catch (e) { log(e.message); gw.logChildOutput(processes, log, 40); } finally { control.done(); await cleanups.run(); }
process.exit(0);
