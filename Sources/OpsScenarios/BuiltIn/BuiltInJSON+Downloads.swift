extension BuiltInJSON {
    /// Text of `Demos/Scenarios/downloads.json` (a test keeps them byte-identical).
    static let downloads = #"""
        {
          "name": "downloads",
          "description": "40 image downloads: thumbnails (KB), photos (MB) and posters (tens of MB) at mixed speeds",
          "concurrency": 4,
          "seed": 1,
          "operations": [
            {
              "id": "thumb-{i}", "name": "thumb-{i}.jpg", "kind": "download", "repeat": 16,
              "size": { "min": 4000, "max": 250000 }, "bandwidth": { "min": 200000, "max": 1000000 },
              "latency": { "min": 0.05, "max": 0.3 }, "jitter": 0.2
            },
            {
              "id": "poster-{i}", "name": "poster-{i}.png", "kind": "download", "repeat": 8,
              "size": { "min": 10000000, "max": 40000000 }, "bandwidth": { "min": 2000000, "max": 6000000 },
              "latency": { "min": 0.1, "max": 0.5 }, "jitter": 0.1
            },
            {
              "id": "photo-{i}", "name": "photo-{i}.jpg", "kind": "download", "repeat": 16,
              "size": { "min": 500000, "max": 6000000 }, "bandwidth": { "min": 500000, "max": 2000000 },
              "latency": { "min": 0.1, "max": 0.5 }, "jitter": 0.2
            }
          ]
        }

        """#
}
