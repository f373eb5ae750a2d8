// Where the time goes during a load phase: CPU used per process (Linux /proc), the machine's
// total CPU use, and what the bench database's backends were waiting on (pg_stat_activity
// samples). Best effort: without /proc the CPU figures are simply left out.
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function processTicks(pid) {
  return statTicks(`/proc/${pid}/stat`);
}

function statTicks(file) {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
  } catch {
    return undefined;
  }
}

/**
 * CPU of a JVM's JIT compiler threads (HotSpot's `C1/C2 CompilerThread`): the bench's broker is a new
 * JVM each run, and compiling its hot paths took half of its CPU in the first phases that used it
 * (kafka-warmup.mjs). Threads that ended during the interval are missed: a lower bound.
 */
function compilerTicks(pid) {
  try {
    let ticks = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      let comm = '';
      try {
        comm = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8');
      } catch {
        continue; // gone
      }
      if (/^C[12] CompilerThre/.test(comm)) ticks += statTicks(`/proc/${pid}/task/${task}/stat`) ?? 0;
    }
    return ticks;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds a JVM's threads have used so far, by kind: `jit` (C1/C2 compiler threads), `gc` (HotSpot's
 * G1/GC threads) and `other` (the application's and the rest); undefined without /proc. Threads that
 * ended are missed, as in compilerTicks.
 */
export function jvmThreadSeconds(pid) {
  const seconds = { jit: 0, gc: 0, other: 0 };
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      let comm;
      try {
        comm = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8');
      } catch {
        continue; // gone
      }
      const kind = /^C[12] CompilerThre/.test(comm) ? 'jit' : /^(G1 |GC Thread|VM Thread)/.test(comm) ? 'gc' : 'other';
      seconds[kind] += (statTicks(`/proc/${pid}/task/${task}/stat`) ?? 0) / TICKS_PER_SECOND;
    }
    return seconds;
  } catch {
    return undefined;
  }
}

/** CPU seconds a JVM's JIT compiler threads have used so far (compilerTicks), or undefined without /proc. */
export function compilerSeconds(pid) {
  const ticks = compilerTicks(pid);
  return ticks === undefined ? undefined : ticks / TICKS_PER_SECOND;
}

/** Pids of the machine's PostgreSQL and Redis processes (shared services: the bench's work runs in them too). */
function servicePids() {
  const found = {};
  let entries = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const pid of entries) {
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      const service = comm.startsWith('postgres') ? 'postgres' : comm.startsWith('redis-server') ? 'redis' : undefined;
      if (service) found[pid] = service;
    } catch {
      // gone
    }
  }
  return found;
}

function machineTicks() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = cpu[3] + (cpu[4] ?? 0);
    return { total: cpu.reduce((a, b) => a + b, 0), idle };
  } catch {
    return undefined;
  }
}

/**
 * Starts measuring; `stop()` returns CPU use over the interval: per named pid as a share of one
 * core (1.0 = a full core), the machine's busy share of all cores, and the top wait events.
 */
/**
 * Each worker's handler time by event type (Prometheus `einvoice_event_handler_duration_seconds` sum
 * and count), and the time its events waited from their publish to their handler
 * (`einvoice_event_wait_seconds`).
 */
async function handlerTimes(metricsUrls) {
  const out = {};
  await Promise.all(Object.entries(metricsUrls ?? {}).map(async ([app, url]) => {
    const text = await fetch(url).then((r) => r.text(), () => '');
    const byType = {};
    for (const line of text.split('\n')) {
      const m = /^einvoice_event_(handler_duration|wait)_seconds_(sum|count)\{([^}]*)\} (\S+)$/.exec(line);
      if (!m || /group="[^"]*\.dead-letter"/.test(m[3])) continue;
      const type = /event_type="([^"]+)"/.exec(m[3])?.[1];
      byType[type] ??= { sum: 0, count: 0, waitSum: 0, waitCount: 0 };
      const field = m[1] === 'wait' ? (m[2] === 'sum' ? 'waitSum' : 'waitCount') : m[2];
      byType[type][field] += Number(m[4]);
    }
    out[app] = byType;
  }));
  return out;
}

export function startProbe({ pids, db, database, metricsUrls }) {
  const started = Date.now();
  const handlersBefore = handlerTimes(metricsUrls);
  // WAL written over the interval (the whole server's: the bench is alone on it, as it must be).
  const walBefore = db?.query(`SELECT pg_current_wal_lsn() AS lsn`).then((r) => r.rows[0].lsn).catch(() => undefined);
  // Per-statement time over the interval, where the server preloads pg_stat_statements
  // (BENCH_PG_STATEMENTS=1; shared_preload_libraries needs a server restart, so it is not assumed).
  const statementsReset = process.env.BENCH_PG_STATEMENTS === '1' && db ? resetStatements(db) : undefined;
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processTicks(pid)]));
  const servicesBefore = Object.fromEntries(Object.keys(servicePids()).map((pid) => [pid, processTicks(pid)]));
  const machineBefore = machineTicks();
  const jitBefore = pids.kafka ? compilerTicks(pids.kafka) : undefined;
  const waits = new Map();
  let samples = 0;
  let sampling = false;
  const timer = setInterval(async () => {
    if (sampling || !db) return;
    sampling = true;
    try {
      const { rows } = await db.query(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU/running') AS wait, count(*)::int AS n
         FROM pg_stat_activity
         WHERE datname = $1 AND state = 'active' AND pid <> pg_backend_pid()
         GROUP BY 1`,
        [database],
      );
      samples += 1;
      for (const { wait, n } of rows) waits.set(wait, (waits.get(wait) ?? 0) + n);
    } catch {
      // a sample lost is fine
    } finally {
      sampling = false;
    }
  }, 200);

  return {
    /** Like stop(), plus `walBytes` (WAL the server wrote over the interval). */
    async stopWithWal() {
      const figures = this.stop();
      const before = await walBefore;
      if (!before || !db) return figures;
      const { rows } = await db.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint AS bytes`, [before]).catch(() => ({ rows: [{}] }));
      const statements = (await statementsReset) ? await topStatements(db, database) : undefined;
      return { ...figures, statements, handlers: await this.handlers(), walBytes: rows[0].bytes === undefined ? undefined : Number(rows[0].bytes) };
    },
    /** Per worker and event type over the interval: messages handled and mean handler time (ms), busiest first. */
    async handlers() {
      const [before, after] = [await handlersBefore, await handlerTimes(metricsUrls)];
      const rows = [];
      for (const [app, byType] of Object.entries(after)) {
        for (const [type, { sum, count, waitSum, waitCount }] of Object.entries(byType)) {
          const was = before[app]?.[type] ?? { sum: 0, count: 0, waitSum: 0, waitCount: 0 };
          const n = count - was.count;
          const waited = waitCount - was.waitCount;
          const waitMs = waited > 0 ? ((waitSum - was.waitSum) * 1000) / waited : undefined;
          if (n > 0) rows.push({ app, type, count: n, meanMs: ((sum - was.sum) * 1000) / n, totalMs: (sum - was.sum) * 1000, waitMs });
        }
      }
      return rows.sort((a, b) => b.totalMs - a.totalMs).slice(0, 8);
    },
    stop() {
      clearInterval(timer);
      const seconds = (Date.now() - started) / 1000;
      const cores = {};
      for (const [name, pid] of Object.entries(pids)) {
        const after = processTicks(pid);
        if (after !== undefined && before[name] !== undefined) cores[name] = (after - before[name]) / TICKS_PER_SECOND / seconds;
      }
      // PostgreSQL backends started during the interval count from zero; ones that ended are lost
      // (the apps' pools keep theirs for the whole run).
      for (const [pid, service] of Object.entries(servicePids())) {
        const after = processTicks(pid);
        if (after === undefined) continue;
        cores[service] = (cores[service] ?? 0) + (after - (servicesBefore[pid] ?? 0)) / TICKS_PER_SECOND / seconds;
      }
      /** CPU seconds of the whole stack: the apps, the broker, PostgreSQL and Redis (not the load generator). */
      const cpuSeconds = Object.values(cores).reduce((a, b) => a + b, 0) * seconds;
      const machineAfter = machineTicks();
      const machineBusy =
        machineBefore && machineAfter
          ? 1 - (machineAfter.idle - machineBefore.idle) / (machineAfter.total - machineBefore.total)
          : undefined;
      // Average number of active backends in each state per sample.
      const topWaits = [...waits.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([wait, n]) => ({ wait, avgBackends: samples ? n / samples : 0 }));
      const jitAfter = pids.kafka ? compilerTicks(pids.kafka) : undefined;
      const kafkaJit = jitBefore !== undefined && jitAfter !== undefined ? Math.max(0, jitAfter - jitBefore) / TICKS_PER_SECOND / seconds : undefined;
      return { seconds, cores, cpuSeconds, machineBusy, topWaits, samples, loadavg: os.loadavg(), kafkaJit };
    },
  };
}

async function resetStatements(db) {
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.query('SELECT pg_stat_statements_reset()');
    return true;
  } catch {
    return false; // not preloaded: the view cannot be read
  }
}

/** The statements that took the most server time over the interval (this database's). */
async function topStatements(db, database, limit = 12) {
  const { rows } = await db.query(
    `SELECT calls::bigint AS calls, total_exec_time AS total_ms, rows::bigint AS rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
     FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = $1 AND query NOT ILIKE '%pg_stat_statements%'
     ORDER BY total_exec_time DESC LIMIT $2`,
    [database, limit],
  ).catch(() => ({ rows: [] }));
  return rows.map((r) => ({ calls: Number(r.calls), totalMs: Number(r.total_ms), rows: Number(r.rows), query: r.query }));
}
