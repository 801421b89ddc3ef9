extension BuiltInJSON {
    /// Text of `Demos/Scenarios/uploads.json` (a test keeps them byte-identical).
    static let uploads = #"""
        {
          "name": "uploads",
          "description": "25 uploads: reports, slow backups and large videos; three fail twice and succeed on retry",
          "concurrency": 4,
          "seed": 2,
          "operations": [
            {
              "id": "report-{i}", "name": "report-{i}.pdf", "kind": "upload", "repeat": 12,
              "size": { "min": 200000, "max": 3000000 }, "bandwidth": { "min": 300000, "max": 1000000 },
              "latency": 0.2, "jitter": 0.2
            },
            {
              "id": "video-{i}", "name": "video-{i}.mp4", "kind": "upload", "repeat": 4,
              "size": { "min": 20000000, "max": 40000000 }, "bandwidth": { "min": 1500000, "max": 2500000 },
              "latency": 0.3, "jitter": 0.1
            },
            {
              "id": "backup-{i}", "name": "backup-{i}.tar.gz", "kind": "upload", "repeat": 6,
              "size": { "min": 2000000, "max": 8000000 }, "bandwidth": { "min": 500000, "max": 1000000 },
              "latency": 0.5, "jitter": 0.3
            },
            {
              "id": "sync-{i}", "name": "sync-{i}.db", "kind": "upload", "repeat": 3,
              "size": 3000000, "bandwidth": 1000000, "latency": 0.2,
              "failure": { "at": { "min": 0.3, "max": 0.8 }, "message": "connection reset by peer", "attempts": 2 },
              "retries": 3, "backoff": 1
            }
          ]
        }

        """#
}
