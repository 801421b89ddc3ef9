extension BuiltInJSON {
    /// Text of `Demos/Scenarios/burst.json` (a test keeps them byte-identical).
    static let burst = #"""
        {
          "name": "burst",
          "description": "10,000 small downloads at concurrency 32: a stress test for the queue and the dashboard",
          "concurrency": 32,
          "seed": 5,
          "operations": [
            {
              "id": "task-{i}", "kind": "download", "repeat": 10000,
              "size": { "min": 1000, "max": 64000 }, "bandwidth": { "min": 1000000, "max": 4000000 },
              "latency": { "min": 0, "max": 0.05 }
            }
          ]
        }

        """#
}
