extension BuiltInJSON {
    /// Text of `Demos/Scenarios/mixed.json` (a test keeps them byte-identical).
    static let mixed = #"""
        {
          "name": "mixed",
          "description": "Downloads and uploads with dependencies; one upload fails once and recovers, one fails for good",
          "concurrency": 4,
          "seed": 42,
          "operations": [
            {
              "id": "manifest", "name": "manifest.json", "kind": "download",
              "size": 200000, "bandwidth": 400000, "latency": 0.2
            },
            {
              "id": "avatar-{i}", "name": "avatar-{i}.png", "kind": "download", "repeat": 6,
              "size": { "min": 20000, "max": 300000 }, "bandwidth": 300000, "latency": { "min": 0.05, "max": 0.3 }
            },
            {
              "id": "asset-{i}", "name": "asset-{i}.bin", "kind": "download", "repeat": 10,
              "size": { "min": 1000000, "max": 8000000 }, "bandwidth": { "min": 1000000, "max": 3000000 },
              "latency": { "min": 0.1, "max": 0.5 }, "jitter": 0.2, "after": ["manifest"],
              "onDependencyFailure": "cancel"
            },
            {
              "id": "bundle", "name": "bundle.zip", "kind": "upload",
              "size": 10000000, "bandwidth": 1500000, "latency": 0.3, "jitter": 0.1,
              "after": ["asset-1", "asset-2", "asset-3"],
              "onDependencyFailure": "cancel"
            },
            {
              "id": "logs", "name": "logs.txt", "kind": "upload",
              "size": 2000000, "bandwidth": 500000, "latency": 0.2,
              "failure": { "at": 0.4, "message": "HTTP 503 Service Unavailable", "attempts": 1 },
              "retries": 2, "backoff": 1
            },
            {
              "id": "settings", "name": "settings.plist", "kind": "upload",
              "size": 500000, "bandwidth": 250000, "latency": 0.2, "after": ["manifest"],
              "failure": { "at": 0.7, "message": "HTTP 401 Unauthorized" }
            },
            {
              "id": "backup", "name": "backup.tar", "kind": "upload",
              "size": 15000000, "bandwidth": 1000000, "latency": 0.3, "jitter": 0.1, "after": ["bundle"],
              "onDependencyFailure": "cancel"
            }
          ]
        }

        """#
}
