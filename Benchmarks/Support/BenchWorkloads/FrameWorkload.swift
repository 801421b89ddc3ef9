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
