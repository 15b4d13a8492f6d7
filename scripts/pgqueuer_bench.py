"""PgQueuer side of scripts/bench-queue: the measurements of `pipeline queue-bench`, on PgQueuer's own tables.

Usage: python scripts/pgqueuer_bench.py --dsn postgres://... [--jobs 50000] [--rate 50] [--seconds 20]
(and, internally, `worker --dsn ...` for one drain process).
"""

import argparse
import asyncio
import os
import subprocess
import sys
import time
from datetime import timedelta

import asyncpg
from pgqueuer import __version__ as pgqueuer_version
from pgqueuer.db import AsyncpgDriver
from pgqueuer.qm import QueueManager
from pgqueuer.queries import Queries
from pgqueuer.types import QueueExecutionMode


def report(label, count, elapsed, note=""):
    print(f"{label:<34}{count:6d} jobs in {elapsed:7.3f} s = {count / elapsed:9.0f} jobs/s{note}", flush=True)


async def reset(dsn):
    connection = await asyncpg.connect(dsn)
    queries = Queries(AsyncpgDriver(connection))
    if not await queries.schema_is_installed():
        await queries.install()
    await connection.execute("TRUNCATE pgqueuer, pgqueuer_log, pgqueuer_statistics")
    await connection.execute("VACUUM ANALYZE pgqueuer")
    await connection.close()


async def enqueue(dsn, jobs, batch_size):
    connection = await asyncpg.connect(dsn)
    queries = Queries(AsyncpgDriver(connection))
    started = time.perf_counter()
    if batch_size == 1:
        for _ in range(jobs):
            await queries.enqueue("noop", None)
    else:
        for start in range(0, jobs, batch_size):
            count = min(batch_size, jobs - start)
            await queries.enqueue(["noop"] * count, [None] * count, [0] * count)
    elapsed = time.perf_counter() - started
    await connection.close()
    return elapsed


async def worker(dsn, batch_size):
    connection = await asyncpg.connect(dsn)
    manager = QueueManager(Queries(AsyncpgDriver(connection)))

    @manager.entrypoint("noop")
    async def noop(job):
        pass

    await manager.run(mode=QueueExecutionMode.drain, batch_size=batch_size, dequeue_timeout=timedelta(seconds=1))
    await connection.close()


async def drain(dsn, jobs, processes, batch_size):
    await reset(dsn)
    await enqueue(dsn, jobs, 1000)
    connection = await asyncpg.connect(dsn)
    await connection.execute("VACUUM ANALYZE pgqueuer")
    started = time.perf_counter()
    workers = [
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "worker", "--dsn", dsn, "--batch-size", str(batch_size)])
        for _ in range(processes)
    ]
    for process in workers:
        process.wait()
    elapsed = time.perf_counter() - started
    left = await connection.fetchval("SELECT count(*) FROM pgqueuer")
    await connection.close()
    note = "" if left == 0 else f"  ({left} left!)"
    report(f"drain, {processes} process{'' if processes == 1 else 'es'}, batch {batch_size}", jobs, elapsed, note)


async def latency(dsn, rate, seconds):
    await reset(dsn)
    total = rate * seconds
    enqueued_at, latencies = {}, []
    done = asyncio.Event()
    consumer = await asyncpg.connect(dsn)
    manager = QueueManager(Queries(AsyncpgDriver(consumer)))

    @manager.entrypoint("noop")
    async def noop(job):
        latencies.append(time.perf_counter() - enqueued_at[job.payload])
        if len(latencies) == total:
            done.set()

    running = asyncio.create_task(manager.run(batch_size=10))
    producer = await asyncpg.connect(dsn)
    queries = Queries(AsyncpgDriver(producer))
    await asyncio.sleep(0.3)
    begin = time.perf_counter()
    for index in range(total):
        delay = begin + index / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        key = str(index).encode()
        enqueued_at[key] = time.perf_counter()
        await queries.enqueue("noop", key)
    await asyncio.wait_for(done.wait(), timeout=30)
    manager.shutdown.set()
    await running
    await producer.close()
    await consumer.close()
    ordered = sorted(latencies)

    def percentile(fraction):
        index = min(len(ordered) - 1, max(0, -(-int(fraction * len(ordered) * 1000) // 1000) - 1))
        return f"{ordered[index] * 1000:.2f} ms"

    label = f"pickup latency {rate}/s × {seconds} s"
    print(f"{label:<34}p50 {percentile(0.5)}  p95 {percentile(0.95)}  p99 {percentile(0.99)}  max {percentile(1)}  (n={len(ordered)})", flush=True)


async def benchmark(arguments):
    connection = await asyncpg.connect(arguments.dsn)
    version = await connection.fetchval("SHOW server_version")
    durability = await connection.fetchval("SHOW synchronous_commit")
    await connection.close()
    print(f"pgqueuer {pgqueuer_version}  PostgreSQL {version}  synchronous_commit={durability}  jobs={arguments.jobs}  batch=1000  drain batch_size={'/'.join(map(str, arguments.batch_size))}", flush=True)
    await reset(arguments.dsn)
    report("enqueue single (1/statement)", arguments.single_jobs, await enqueue(arguments.dsn, arguments.single_jobs, 1))
    await reset(arguments.dsn)
    report("enqueue batched (1000/statement)", arguments.jobs, await enqueue(arguments.dsn, arguments.jobs, 1000))
    for batch_size in arguments.batch_size:
        await drain(arguments.dsn, arguments.jobs, 1, batch_size)
        await drain(arguments.dsn, arguments.jobs, 2, batch_size)
    await latency(arguments.dsn, arguments.rate, arguments.seconds)
    await reset(arguments.dsn)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", nargs="?", default="bench", choices=["bench", "worker"])
    parser.add_argument("--dsn", required=True)
    parser.add_argument("--jobs", type=int, default=50_000)
    parser.add_argument("--single-jobs", type=int, default=None)
    parser.add_argument("--batch-size", type=int, nargs="+", default=[10, 100],
                        help="dequeue batch sizes to drain with (PgQueuer's default is 10)")
    parser.add_argument("--rate", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=20)
    arguments = parser.parse_args()
    if arguments.single_jobs is None:
        arguments.single_jobs = arguments.jobs
    if arguments.mode == "worker":
        asyncio.run(worker(arguments.dsn, arguments.batch_size[0]))
    else:
        asyncio.run(benchmark(arguments))


if __name__ == "__main__":
    main()
