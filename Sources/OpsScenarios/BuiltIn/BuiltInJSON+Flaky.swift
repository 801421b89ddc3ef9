extension BuiltInJSON {
    /// Text of `Demos/Scenarios/flaky.json` (a test keeps them byte-identical).
    static let flaky = #"""
        {
          "name": "flaky",
          "description": "Bad network: latency spikes, failures at random points, retries with backoff, some fail for good",
          "concurrency": 5,
          "seed": 4,
          "operations": [
            {
              "id": "fetch-{i}", "kind": "download", "repeat": 20,
              "size": { "min": 500000, "max": 4000000 }, "bandwidth": { "min": 300000, "max": 1500000 },
              "latency": { "min": 0.1, "max": 3 }, "jitter": { "min": 0.3, "max": 0.6 },
              "failureChance": 0.35,
              "failure": { "at": { "min": 0, "max": 1 }, "message": "timed out", "attempts": 2 },
              "retries": 3, "backoff": 0.5
            },
            {
              "id": "push-{i}", "kind": "upload", "repeat": 8,
              "size": { "min": 1000000, "max": 3000000 }, "bandwidth": { "min": 200000, "max": 600000 },
              "latency": { "min": 0.5, "max": 4 }, "jitter": 0.5,
              "failureChance": 0.5,
              "failure": { "at": { "min": 0.1, "max": 0.9 }, "message": "connection reset by peer" },
              "retries": 2, "backoff": 1
            }
          ]
        }

        """#
}
