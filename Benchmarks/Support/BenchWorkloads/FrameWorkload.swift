import OpsMonitor
/// A benchmark that draws one dashboard frame per call (`FrameBench`, `BusyFrameBench`, `QuietFrameBench`).
public protocol FrameWorkload: AnyObject {
    /// Draws one frame; returns the number of changed runs.
    func frame() -> Int
}

extension FrameWorkload {
    /// Seconds per frame, averaged over `frames` frames.
    public func measure(frames: Int) -> Double {
        var changed = 0
        let t = time { for _ in 0..<frames { changed &+= frame() } }
        keepAlive(changed)
        return t / Double(frames)
    }

    /// Main-thread CPU seconds per frame, averaged over `frames` frames.
    public func measureCPU(frames: Int) -> Double {
        var changed = 0
        let t = threadCPUTime { for _ in 0..<frames { changed &+= frame() } }
        keepAlive(changed)
        return t / Double(frames)
    }
}

/// A store holding `operations` ready downloads of `bytes` each ("chunk-N.bin"), keeping every
/// finished one, with the queue's limit set to `slots` (what the frame benchmarks start from).
func downloadStore(operations: Int, slots: Int, bytes: Int64) -> MonitorStore {
    var store = MonitorStore(limits: MonitorStore.Limits(finishedOperations: operations))
    for index in 0..<operations {
        _ = store.add(
            name: "chunk-\(index).bin", kind: .download, lifecycle: .ready, totalBytes: bytes,
            dependencies: [], time: .zero)
    }
    store.queueChanged(maxConcurrent: slots, reason: "concurrency limit \(slots)", time: .zero)
    return store
}
