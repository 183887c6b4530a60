// drain.js enqueue|drain URI JOBS CONCURRENCY: graphile-worker beside
// Sluice's store benchmark (tests/bench/bench-store.sh). `enqueue` adds
// JOBS no-op jobs (one statement); `drain` times one worker pool of
// CONCURRENCY draining them, configured as
// Sluice's worker is: jobs fetched in batches into a local queue of
// 4 + CONCURRENCY + 1 (Sluice's lead bound), completions batched per tick.
// Prints one JSON line: {"seconds": …, "cpu_us": …} (this process's CPU
// while it drained; the server's is the caller's to measure).
"use strict";
const { run, makeWorkerUtils, Logger } = require("graphile-worker");

// Silent, as Sluice's worker is without --verbose: no line per job.
const logger = new Logger(() => () => {});

async function main() {
  const [mode, uri, jobsText, concurrencyText] = process.argv.slice(2);
  const jobs = Number(jobsText);
  const concurrency = Number(concurrencyText);
  const preset = {
    worker: {
      connectionString: uri,
      concurrentJobs: concurrency,
      maxPoolSize: concurrency + 2,
      pollInterval: 1000,
      localQueue: { size: 4 + concurrency + 1 },
      completeJobBatchDelay: 0,
      failJobBatchDelay: 0,
    },
  };
  const utils = await makeWorkerUtils({ connectionString: uri, logger });
  await utils.migrate();
  if (mode === "enqueue") {
    await utils.withPgClient((client) =>
      client.query(
        "SELECT graphile_worker.add_jobs(array_agg(row('noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec)) FROM generate_series(1, $1)",
        [jobs],
      ),
    );
  }
  await utils.release();
  if (mode !== "drain") return;

  let done = 0;
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  const startCpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const runner = await run({
    preset,
    logger,
    noHandleSignals: true,
    taskList: {
      noop: async () => {
        if (++done === jobs) finish();
      },
    },
  });
  await finished;
  // The last completions are batched: wait for the queue to be empty.
  await runner.stop();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(startCpu);
  process.stdout.write(JSON.stringify({ seconds, cpu_us: cpu.user + cpu.system }) + "\n");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
