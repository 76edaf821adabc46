-- Prints wrk's figures as one JSON line (wrk's own report has no p95).
done = function(summary, latency, requests)
  io.write(string.format(
    '{"requests": %d, "duration_s": %.3f, "rps": %.1f, "p50_ms": %.2f, "p95_ms": %.2f, "p99_ms": %.2f, ' ..
    '"errors": %d, "non_2xx": %d}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
