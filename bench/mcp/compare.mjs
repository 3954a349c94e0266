#!/usr/bin/env node
// Same-run comparison of `dsh mcp` against an in-memory peer,
// mcp-excalidraw-server 2.0.0 (yctimlin/mcp_excalidraw), both driven over
// stdio by the same MCP client (@modelcontextprotocol/sdk). Issue 13.
//
//   node compare.mjs --dsh ../../bin/dsh [--rounds 5] [--updates 20]
//                    [--updates-10k 10] [--sizes 1000,10000] [--create 1000]
//
// Measures, each over several rounds, interleaved so that both servers and
// the floor see the same machine:
//   update N    one-element update on a scene of N elements: dsh
//               (update_elements, and excalidraw_scene_apply) vs the peer
//               (update_element), plus a durable-write floor of exactly the
//               scene file's bytes (write temp + fsync + rename + fsync dir)
//   create      1,000 elements: dsh batch_create in one call vs the peer's
//               batch_create_elements in 10 calls of 100
//
// The peer keeps elements in a Map in its canvas server (dist/server.js, an
// Express app); its MCP stdio server (dist/bin.js) forwards every tool call
// to it over loopback HTTP. With ENABLE_CANVAS_SYNC=false the peer cannot
// update at all, so the script starts the canvas server itself on a free
// loopback port and points the MCP server at it (EXPRESS_SERVER_URL,
// EXCALIDRAW_NO_AUTOSTART=1). Everything either server writes (dsh's data
// dir, the peer's logs and pidfile) lives in one temp dir, removed at exit.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));

// ---- arguments --------------------------------------------------------------

function parseArgs(argv) {
  const opts = { dsh: '', rounds: 5, updates: 20, updates10k: 10, sizes: [1000, 10000], create: 1000, peerBatch: 100, callTimeoutMs: 120000 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].split('=', 2);
    const v = inline ?? argv[++i];
    switch (k) {
      case '--dsh': opts.dsh = v; break;
      case '--rounds': opts.rounds = posInt(k, v); break;
      case '--updates': opts.updates = posInt(k, v); break;
      case '--updates-10k': opts.updates10k = posInt(k, v); break;
      case '--sizes': opts.sizes = v.split(',').map(s => posInt(k, s)); break;
      case '--create': opts.create = posInt(k, v); break;
      case '--peer-batch': opts.peerBatch = posInt(k, v); break;
      case '--call-timeout-ms': opts.callTimeoutMs = posInt(k, v); break;
      case '--show-results': opts.showResults = true; if (inline === undefined) i--; break;
      default: usage(`unknown argument ${argv[i]}`);
    }
  }
  if (!opts.dsh) usage('--dsh PATH (the dsh binary: go build -o bin/dsh ./cmd/dsh) is required');
  opts.dsh = path.resolve(opts.dsh);
  if (!fs.existsSync(opts.dsh)) usage(`no dsh binary at ${opts.dsh}`);
  return opts;
}
function posInt(k, v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000000) usage(`${k} wants a positive integer, got ${v}`);
  return n;
}
function usage(msg) {
  process.stderr.write(`compare.mjs: ${msg}\nusage: node compare.mjs --dsh PATH [--rounds N] [--updates N] [--updates-10k N] [--sizes 1000,10000] [--create N] [--peer-batch N] [--show-results]\n`);
  process.exit(2);
}

// ---- statistics -------------------------------------------------------------

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function summary(xs) {
  return { p50: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}
const r2 = x => Math.round(x * 100) / 100;
const ms = t0 => Number(process.hrtime.bigint() - t0) / 1e6;

// ---- one MCP client, used for both servers ----------------------------------

class McpSide {
  constructor(label, serverParams, callTimeoutMs) {
    this.label = label;
    this.params = serverParams;
    this.callTimeoutMs = callTimeoutMs;
    this.stderrTail = '';
  }

  async connect() {
    this.transport = new StdioClientTransport({ ...this.params, stderr: 'pipe' });
    this.transport.stderr?.on('data', chunk => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
    });
    this.client = new Client({ name: 'dsh-bench-mcp', version: '1.0.0' });
    await this.client.connect(this.transport, { timeout: 30000 });
    const { tools } = await this.client.listTools();
    this.tools = new Set(tools.map(t => t.name));
  }

  need(...names) {
    for (const n of names) {
      if (!this.tools.has(n)) throw new Error(`${this.label} does not list the tool ${n}`);
    }
  }

  // Calls a tool and times it end to end (request encoded, sent, answered,
  // decoded). A tool error is a failure of the benchmark, not a sample.
  async call(name, args) {
    const t0 = process.hrtime.bigint();
    const res = await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.callTimeoutMs });
    const elapsed = ms(t0);
    const text = (res.content ?? []).filter(c => c.type === 'text').map(c => c.text).join('');
    const bytes = Buffer.byteLength(JSON.stringify(res));
    if (res.isError) {
      throw new Error(`${this.label} ${name} failed: ${text.slice(0, 600)}`);
    }
    return { ms: elapsed, bytes, textBytes: Buffer.byteLength(text), text, structured: res.structuredContent };
  }

  async close() {
    try { await this.client?.close(); } catch { /* already gone */ }
  }
}

// --show-results: one answer of each update tool, on stderr.
function show(label, r) {
  process.stderr.write(`--- ${label}: ${r.bytes} B (text ${r.textBytes} B${r.structured !== undefined ? ', plus structured content' : ''})\n${r.text.slice(0, 2000)}\n`);
}

// dsh answers JSON; prefer structured content, else parse the text.
function dshBody(r) {
  if (r.structured && typeof r.structured === 'object') return r.structured;
  return JSON.parse(r.text);
}

// ---- the scene both servers get ----------------------------------------------

// Plain shapes only (no text, no arrows), the fields both servers accept,
// laid out on a grid. The same input goes to both.
function makeElements(n, prefix) {
  const types = ['rectangle', 'ellipse', 'diamond'];
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = {
      id: `${prefix}${i}`,
      type: types[i % 3],
      x: (i % 100) * 160,
      y: Math.floor(i / 100) * 120,
      width: 120,
      height: 80,
      strokeColor: '#1e1e1e',
      backgroundColor: '#a5d8ff',
    };
  }
  return out;
}

// ---- the floor ---------------------------------------------------------------

// One durable replace of `target` with `bytes`, as a save does it: write a
// temp file in the same directory, fsync it, rename it over the target, and
// fsync the directory.
function durableWrite(dir, target, bytes) {
  const t0 = process.hrtime.bigint();
  const tmp = path.join(dir, `.floor-${process.pid}.tmp`);
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, target);
  const dfd = fs.openSync(dir, 'r');
  try { fs.fsyncSync(dfd); } finally { fs.closeSync(dfd); }
  return ms(t0);
}

// ---- processes ---------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForCanvas(url, child, deadlineMs) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the peer's canvas server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(500) });
      const body = await res.json();
      if (res.ok && body.service === 'mcp-excalidraw-canvas') return;
    } catch { /* not up yet */ }
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error(`the peer's canvas server did not answer ${url}/health within ${deadlineMs} ms`);
}

function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise(resolve => {
    const kill = setTimeout(() => { try { child.kill('SIGKILL'); } catch { /* gone */ } }, 3000);
    child.once('exit', () => { clearTimeout(kill); resolve(); });
    try { child.kill('SIGTERM'); } catch { clearTimeout(kill); resolve(); }
  });
}

// ---- main --------------------------------------------------------------------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-mcpbench-'));
  const home = path.join(work, 'home');
  const dataDir = path.join(work, 'dsh-data');
  const peerDir = path.join(work, 'peer');
  const floorDir = path.join(work, 'floor');
  for (const d of [home, dataDir, peerDir, floorDir]) fs.mkdirSync(d, { recursive: true });

  let canvas = null;
  const sides = [];
  const cleanup = async () => {
    for (const s of sides) await s.close();
    await stopChild(canvas);
    fs.rmSync(work, { recursive: true, force: true });
  };
  const onSignal = sig => {
    process.stderr.write(`compare.mjs: ${sig}, cleaning up\n`);
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // dsh: a config of its own whose dataDir is in the temp dir.
    const maxN = Math.max(...opts.sizes, opts.create);
    const cfg = path.join(work, 'dsh.yaml');
    fs.writeFileSync(cfg, [
      'host:',
      `  dataDir: ${JSON.stringify(dataDir)}`,
      '  log:',
      '    level: warn',
      '    format: json',
      'plugins:',
      '  - id: excalidraw',
      '    name: excalidraw',
      '    config:',
      `      maxElements: ${Math.max(10000, maxN)}`,
      '',
    ].join('\n'));
    const dsh = new McpSide('dsh', {
      command: opts.dsh, args: ['mcp', '--config', cfg], cwd: work,
      env: { HOME: home },
    }, opts.callTimeoutMs);
    sides.push(dsh);

    // The peer: its canvas server (where the elements live) on a free
    // loopback port, then its MCP stdio server pointed at it.
    const pkg = path.join(here, 'node_modules', 'mcp-excalidraw-server');
    const peerVersion = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
    const port = await freePort();
    const canvasUrl = `http://127.0.0.1:${port}`;
    const peerEnv = {
      HOME: home,
      XDG_STATE_HOME: path.join(peerDir, 'state'), // its pidfile and default log
      LOG_FILE_PATH: path.join(peerDir, 'excalidraw.log'),
      EXPRESS_SERVER_URL: canvasUrl,
      EXCALIDRAW_NO_AUTOSTART: '1',
      ENABLE_CANVAS_SYNC: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
    };
    canvas = spawn(process.execPath, [path.join(pkg, 'dist', 'server.js')], {
      cwd: peerDir, // it loads .env from its working directory
      env: { PATH: process.env.PATH, ...peerEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let canvasErr = '';
    canvas.stderr.on('data', c => { canvasErr = (canvasErr + c).slice(-4000); });
    try {
      await waitForCanvas(canvasUrl, canvas, 15000);
    } catch (e) {
      throw new Error(`${e.message}\n${canvasErr}`);
    }
    const peer = new McpSide('peer', {
      command: process.execPath, args: [path.join(pkg, 'dist', 'bin.js')], cwd: peerDir,
      env: peerEnv,
    }, opts.callTimeoutMs);
    sides.push(peer);

    for (const s of sides) {
      try {
        await s.connect();
      } catch (e) {
        throw new Error(`${s.label} did not start: ${e.message}\n${s.stderrTail}`);
      }
    }
    dsh.need('excalidraw_scene_create', 'excalidraw_scene_apply', 'update_elements', 'batch_create');
    peer.need('clear_canvas', 'batch_create_elements', 'update_element');

    const results = {
      peer: `mcp-excalidraw-server@${peerVersion}`, node: process.version, rounds: opts.rounds,
      update: {}, create: null,
    };
    const rows = [];
    const drawings = path.join(dataDir, 'excalidraw', 'drawings');

    // ---- one-element updates ----------------------------------------------
    for (const n of opts.sizes) {
      const k = n >= 10000 ? opts.updates10k : opts.updates;
      const scene = `u${n}`;
      const elements = makeElements(n, 'e');

      // Seed dsh in one create call (not timed as a measure).
      const created = await dsh.call('excalidraw_scene_create', { name: scene, elements });
      let revision = dshBody(created).revision;
      const file = path.join(drawings, `${scene}.excalidraw`);
      const sizes = { sceneCreateResultBytes: created.bytes, sceneCreateMs: r2(created.ms) };

      // Seed the peer: an empty canvas, then batches (not timed).
      let peerOk = true;
      let peerProblem = '';
      try {
        await peer.call('clear_canvas', {});
        for (let i = 0; i < n; i += 1000) {
          await peer.call('batch_create_elements', { elements: elements.slice(i, i + 1000) });
        }
      } catch (e) {
        peerOk = false;
        peerProblem = e.message.slice(0, 300);
      }

      const samples = { dshUpdate: [], dshApply: [], peer: [], floor: [] };
      const perRound = { dshUpdate: [], dshApply: [], peer: [], floor: [] };
      let seq = 0;
      const target = () => `e${(seq * 7919) % n}`; // spread over the scene
      // Always a change, onto a free spot 200 px from the last one, so that the
      // move adds no overlap or near-alignment findings to dsh's lint.
      const newX = () => 20000 + (seq % 2000) * 200;

      // Warm-up (not counted): a few calls each.
      for (let w = 0; w < 3; w++, seq++) {
        const r = await dsh.call('update_elements', { name: scene, updates: [{ id: target(), patch: { x: newX() } }] });
        revision = dshBody(r).revision;
        if (peerOk) await peer.call('update_element', { id: target(), x: newX() });
      }

      for (let round = 0; round < opts.rounds; round++) {
        const rs = { dshUpdate: [], dshApply: [], peer: [], floor: [] };
        for (let i = 0; i < k; i++, seq++) {
          const u = await dsh.call('update_elements', { name: scene, updates: [{ id: target(), patch: { x: newX() } }] });
          const ub = dshBody(u);
          if (ub.ok === false || ub.unchanged) throw new Error(`dsh update_elements did not write: ${u.text.slice(0, 300)}`);
          revision = ub.revision;
          rs.dshUpdate.push(u.ms);
          sizes.updateElementsResultBytes = u.bytes;
          sizes.updateElementsTextBytes = u.textBytes;
          sizes.updateElementsStructured = u.structured !== undefined;
          if (opts.showResults && round === 0 && i === 0) show('dsh update_elements', u);
        }
        for (let i = 0; i < k; i++, seq++) {
          const a = await dsh.call('excalidraw_scene_apply', {
            name: scene, expected_revision: revision,
            operations: [{ op: 'update', id: target(), patch: { x: newX() } }],
          });
          const ab = dshBody(a);
          if (ab.ok === false || ab.unchanged) throw new Error(`dsh excalidraw_scene_apply did not write: ${a.text.slice(0, 300)}`);
          revision = ab.revision;
          rs.dshApply.push(a.ms);
          sizes.sceneApplyResultBytes = a.bytes;
          if (opts.showResults && round === 0 && i === 0) show('dsh excalidraw_scene_apply', a);
        }
        if (peerOk) {
          try {
            for (let i = 0; i < k; i++, seq++) {
              const p = await peer.call('update_element', { id: target(), x: newX() });
              rs.peer.push(p.ms);
              sizes.peerUpdateResultBytes = p.bytes;
              if (opts.showResults && round === 0 && i === 0) show('peer update_element', p);
            }
          } catch (e) {
            peerOk = false;
            peerProblem = e.message.slice(0, 300);
            rs.peer = [];
          }
        }
        // The floor: exactly the bytes dsh's file holds now.
        const bytes = fs.readFileSync(file);
        sizes.sceneFileBytes = bytes.length;
        const floorTarget = path.join(floorDir, `${scene}.excalidraw`);
        for (let i = 0; i < k; i++) rs.floor.push(durableWrite(floorDir, floorTarget, bytes));

        for (const key of Object.keys(rs)) {
          samples[key].push(...rs[key]);
          if (rs[key].length) perRound[key].push(median(rs[key]));
        }
      }

      const ratioPerRound = (a, b) => perRound[a].map((x, i) => x / perRound[b][i]);
      const entry = {
        elements: n, callsPerRound: k, ...sizes,
        dshUpdate: summary(samples.dshUpdate), dshApply: summary(samples.dshApply),
        floor: summary(samples.floor),
        peer: peerOk ? summary(samples.peer) : null, peerProblem: peerOk ? undefined : peerProblem,
        roundP50: perRound,
        ratios: {
          dshUpdateOverPeer: peerOk ? summary(ratioPerRound('dshUpdate', 'peer')) : null,
          dshApplyOverPeer: peerOk ? summary(ratioPerRound('dshApply', 'peer')) : null,
          dshUpdateOverFloor: summary(ratioPerRound('dshUpdate', 'floor')),
          dshApplyOverFloor: summary(ratioPerRound('dshApply', 'floor')),
        },
      };
      results.update[n] = entry;
      rows.push([`update ${n}: dsh update_elements`, entry.dshUpdate, entry.updateElementsResultBytes]);
      rows.push([`update ${n}: dsh excalidraw_scene_apply`, entry.dshApply, entry.sceneApplyResultBytes]);
      rows.push([`update ${n}: peer update_element`, entry.peer, entry.peerUpdateResultBytes]);
      rows.push([`update ${n}: floor (${entry.sceneFileBytes} B durable write)`, entry.floor, null]);
    }

    // ---- 1,000-element create -------------------------------------------------
    {
      const n = opts.create;
      const b = opts.peerBatch;
      const dshMs = [];
      const peerMs = [];
      let dshBytes = 0;
      let peerBytes = 0;
      let fileBytes = 0;
      for (let round = -1; round < opts.rounds; round++) { // round -1 warms up
        const prefix = `c${round + 1}x`;
        const elements = makeElements(n, prefix);
        const scene = `create-${round + 1}`;
        await dsh.call('excalidraw_scene_create', { name: scene, elements: [] });
        const d = await dsh.call('batch_create', { name: scene, elements });
        const db = dshBody(d);
        const made = db.changed?.created?.length;
        if (db.ok === false || made !== n) throw new Error(`dsh batch_create made ${made} of ${n}: ${d.text.slice(0, 300)}`);

        await peer.call('clear_canvas', {});
        let total = 0;
        let bytes = 0;
        for (let i = 0; i < n; i += b) {
          const p = await peer.call('batch_create_elements', { elements: elements.slice(i, i + b) });
          total += p.ms;
          bytes += p.bytes;
        }
        if (round >= 0) {
          dshMs.push(d.ms);
          peerMs.push(total);
          dshBytes = d.bytes;
          peerBytes = bytes;
          fileBytes = fs.statSync(path.join(drawings, `${scene}.excalidraw`)).size;
        }
      }
      results.create = {
        elements: n, peerCalls: Math.ceil(n / b), peerBatch: b,
        dshBatchCreate: summary(dshMs), peerBatches: summary(peerMs),
        dshResultBytes: dshBytes, peerResultBytesTotal: peerBytes, sceneFileBytes: fileBytes,
        ratioDshOverPeer: summary(dshMs.map((x, i) => x / peerMs[i])),
      };
      rows.push([`create ${n}: dsh batch_create, 1 call`, results.create.dshBatchCreate, dshBytes]);
      rows.push([`create ${n}: peer batch_create_elements, ${Math.ceil(n / b)} calls`, results.create.peerBatches, peerBytes]);
    }

    // ---- report ----------------------------------------------------------------
    const f = x => (x == null ? '-' : x.toFixed(2));
    const lines = [];
    lines.push(`dsh ${opts.dsh} vs mcp-excalidraw-server@${peerVersion}, node ${process.version}, ${opts.rounds} rounds (ms per call; create: ms for all ${opts.create} elements; result B: the whole tool result, text + structured content)`);
    lines.push(`${'measure'.padEnd(58)} ${'p50'.padStart(9)} ${'min'.padStart(9)} ${'max'.padStart(9)} ${'n'.padStart(4)} ${'result B'.padStart(10)}`);
    for (const [name, s, bytes] of rows) {
      lines.push(`${name.padEnd(58)} ${f(s?.p50).padStart(9)} ${f(s?.min).padStart(9)} ${f(s?.max).padStart(9)} ${String(s?.n ?? '-').padStart(4)} ${String(bytes ?? '-').padStart(10)}`);
    }
    lines.push('ratios (per round: same-round p50 ÷ p50; shown as p50 [min..max] over rounds)');
    const rr = s => (s ? `${f(s.p50)} [${f(s.min)}..${f(s.max)}]` : 'peer did not cope');
    for (const n of opts.sizes) {
      const e = results.update[n];
      lines.push(`  update ${n}: dsh update_elements ÷ peer ${rr(e.ratios.dshUpdateOverPeer)}; ÷ floor ${rr(e.ratios.dshUpdateOverFloor)}`);
      lines.push(`  update ${n}: dsh scene_apply     ÷ peer ${rr(e.ratios.dshApplyOverPeer)}; ÷ floor ${rr(e.ratios.dshApplyOverFloor)}`);
      if (e.peerProblem) lines.push(`  update ${n}: peer: ${e.peerProblem}`);
    }
    lines.push(`  create ${opts.create}: dsh 1 call ÷ peer ${results.create.peerCalls} calls ${rr(results.create.ratioDshOverPeer)}`);
    process.stdout.write(lines.join('\n') + '\n');
    process.stdout.write(`BENCH_MCP_JSON ${JSON.stringify(results)}\n`);
  } finally {
    await cleanup();
  }
}

main().catch(e => {
  process.stderr.write(`compare.mjs: ${e.stack || e.message}\n`);
  process.exitCode = 1;
});
