// The Function's call metrics in Prometheus' text format, by hand: three series do not need a client library.

// Upper bounds in seconds, up to Kyma's default FUNC_TIMEOUT of 180 s.
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 180];

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export class Metrics {
  calls = 0;
  failures = 0;
  #bucketCounts = BUCKETS.map(() => 0);
  #durationSum = 0;
  #durationCount = 0;

  /** Records one finished call of the handler that took `seconds`. */
  observeDuration(seconds) {
    BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) this.#bucketCounts[i]++;
    });
    this.#durationSum += seconds;
    this.#durationCount++;
  }

  render() {
    return [
      '# HELP function_calls_total Number of calls to the function.',
      '# TYPE function_calls_total counter',
      `function_calls_total ${this.calls}`,
      '# HELP function_failures_total Number of calls that threw, rejected or timed out.',
      '# TYPE function_failures_total counter',
      `function_failures_total ${this.failures}`,
      '# HELP function_duration_seconds Time from calling the function until its response was sent.',
      '# TYPE function_duration_seconds histogram',
      ...BUCKETS.map((bound, i) => `function_duration_seconds_bucket{le="${bound}"} ${this.#bucketCounts[i]}`),
      `function_duration_seconds_bucket{le="+Inf"} ${this.#durationCount}`,
      `function_duration_seconds_sum ${this.#durationSum}`,
      `function_duration_seconds_count ${this.#durationCount}`,
      '',
    ].join('\n');
  }
}
