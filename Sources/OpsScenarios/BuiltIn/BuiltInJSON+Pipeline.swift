extension BuiltInJSON {
    /// Text of `Demos/Scenarios/pipeline.json` (a test keeps them byte-identical).
    static let pipeline = #"""
        {
          "name": "pipeline",
          "description": "Image pipeline: download → filter → upload for 8 images, then one publish step after all uploads",
          "concurrency": 3,
          "seed": 3,
          "operations": [
            {
              "id": "download-{i}", "name": "download image-{i}.jpg", "kind": "download", "repeat": 8,
              "size": { "min": 1000000, "max": 5000000 }, "bandwidth": { "min": 1000000, "max": 2000000 },
              "latency": { "min": 0.1, "max": 0.4 }, "jitter": 0.2
            },
            {
              "id": "filter-{i}", "name": "filter image-{i}.jpg", "kind": "process", "repeat": 8,
              "duration": { "min": 1, "max": 3 }, "after": ["download-{i}"],
              "onDependencyFailure": "cancel"
            },
            {
              "id": "upload-{i}", "name": "upload image-{i}-filtered.jpg", "kind": "upload", "repeat": 8,
              "size": { "min": 1000000, "max": 3000000 }, "bandwidth": { "min": 500000, "max": 1000000 },
              "latency": 0.2, "jitter": 0.2, "after": ["filter-{i}"],
              "onDependencyFailure": "cancel"
            },
            {
              "id": "publish", "name": "publish gallery", "kind": "process", "duration": 2,
              "after": ["upload-1", "upload-2", "upload-3", "upload-4", "upload-5", "upload-6", "upload-7", "upload-8"],
              "onDependencyFailure": "cancel"
            }
          ]
        }

        """#
}
