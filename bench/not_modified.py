"""`python -m bench.not_modified`: what a poll that finds nothing new costs the server (issue 67:
"a 304 that costs ≤ 1.5 ms of CPU"). gunicorn with production settings and Redis, as the day
runs it (two sync workers on CPU 0, `prlimit` 512 MiB), a 1,024-player event on PostgreSQL;
wrk on CPU 1 asks the standings page again and again with the ETag the page was answered
with, as a phone's refresh does while nothing it shows has moved. Printed: the answers (all
must be 304), requests/s, and the CPU the server's processes used per answer — everything a
304 costs there: gunicorn, the middleware, the tag's query, the connection's health check,
the access log line.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import urllib.request

from bench.day import CLIENT_CPU, MEMORY, SERVER_CPU
from bench.servers import cpu_seconds, free_port, served_event, start_redis, start_server

DB = "jansou_not_modified"
# wrk counts every answer but a 304 (a 200 would pass its own check: it is 2xx).
COUNT = """
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) others = 0 end
function response(status, headers, body) if status ~= 304 then others = others + 1 end end
function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get("others") end
  io.write("not 304: " .. n .. "\\n")
end
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    workdir, env = served_event(f"{DB}-{args.players}", DB, args.players, 4, "bench")
    prefix = ["taskset", "-c", str(SERVER_CPU), "prlimit", f"--as={MEMORY}", "--"]
    redis_port, port = free_port(), free_port()
    redis = start_redis(workdir, redis_port, prefix)
    env = {**env, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"}
    server = start_server(env, 2, "/events/bench/", workdir / "gunicorn-304.log", port, prefix)
    try:
        page = f"http://127.0.0.1:{port}/events/bench/"
        https = {"X-Forwarded-Proto": "https"}
        with urllib.request.urlopen(urllib.request.Request(page, headers=https)) as answer:
            tag = answer.headers["ETag"]
        children = subprocess.run(
            ["pgrep", "-P", str(server.pid)], capture_output=True, text=True, check=True
        ).stdout.split()
        pids = [server.pid, *map(int, children), redis.pid]
        script = workdir / "not_modified.lua"
        script.write_text(COUNT)
        before = cpu_seconds(pids)
        wrk = subprocess.run(
            [
                "taskset",
                "-c",
                str(CLIENT_CPU),
                "wrk",
                "-t1",
                f"-c{args.clients}",
                f"-d{args.seconds}s",
                "-H",
                f"If-None-Match: {tag}",
                "-H",
                "X-Forwarded-Proto: https",
                "-H",
                "X-Requested-With: fetch",
                "-s",
                str(script),
                page,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        spent = cpu_seconds(pids) - before
    finally:
        server.terminate()
        server.wait(20)
        redis.terminate()
        redis.wait(10)
    answered = int(re.search(r"(\d+) requests in", wrk).group(1))
    other = int(re.search(r"not 304: (\d+)", wrk).group(1))
    rate = re.search(r"Requests/sec:\s+([\d.]+)", wrk).group(1)
    print(
        f"\n== a poll with nothing new: the standings of {args.players} players, "
        f"{args.seconds} s, {args.clients} connections =="
    )
    print(f"  answers     {answered}, {rate}/s, every one 304: {'yes' if not other else 'NO'}")
    print(
        f"  server CPU  {spent:.1f} s (gunicorn master and workers, redis-server): "
        f"{1000 * spent / max(1, answered):.2f} ms a 304 (target ≤ 1.5 ms)"
    )
    if other:
        sys.exit(1)


if __name__ == "__main__":
    main()
