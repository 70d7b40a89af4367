// A bench's view into a child Node process's heap through the V8 inspector: a forced full collection, the heap in use
// after it, and heap snapshots. The child is started with `inspectorArgs` (an inspector on a free loopback port, so
// benches on a shared machine never collide on 9229), and `attachInspector` reads the address the child prints.
// Nothing in the gateway changes for this: it is Node's own inspector, opened only by the bench.
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

export const inspectorArgs = ['--inspect=127.0.0.1:0'];

/**
 * Connects to the inspector of `child` (spawned with `inspectorArgs` and `stderr: 'pipe'`); the child's other stderr
 * lines are passed on to this process's stderr.
 */
export async function attachInspector(child) {
  const lines = createInterface({ input: child.stderr });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the child printed no inspector address')), 30_000);
    lines.on('line', (line) => {
      const found = /Debugger listening on (ws:\/\/\S+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      } else if (!line.startsWith('For help, see') && !line.startsWith('Debugger attached')) {
        process.stderr.write(`${line}\n`);
      }
    });
  });
  return connectInspector(url);
}

/** The address of the inspector a child started with `inspectorArgs` printed, found in its captured output. */
export function inspectorUrlIn(output) {
  const found = /Debugger listening on (ws:\/\/\S+)/.exec(output);
  if (!found) throw new Error('the child printed no inspector address');
  return found[1];
}

/** Connects to the inspector at `url` (see `attachInspector`, or `inspectorUrlIn` for a child whose output is kept). */
export async function connectInspector(url) {
  const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  let nextId = 1;
  const pending = new Map();
  const listeners = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(`${message.error.message}`));
      else waiter?.resolve(message.result);
    } else {
      listeners.get(message.method)?.(message.params);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });

  return {
    /** Two full collections (the second frees what finalisers of the first released); then the heap in use, bytes. */
    async collectedHeap() {
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const { usedSize } = await send('Runtime.getHeapUsage');
      return usedSize;
    },
    /** The child's `process.memoryUsage()` (bytes): V8 heap, memory outside it that V8 knows of, and array buffers. */
    async memoryUsage() {
      const { result } = await send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
      return JSON.parse(result.value);
    },
    /** Writes a heap snapshot (which collects garbage first) to `path`. */
    async snapshot(path) {
      const file = createWriteStream(path);
      listeners.set('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => file.write(chunk));
      await send('HeapProfiler.enable');
      await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      listeners.delete('HeapProfiler.addHeapSnapshotChunk');
      await send('HeapProfiler.disable');
      await new Promise((resolve) => file.end(resolve));
    },
    close() {
      socket.terminate();
    },
  };
}
