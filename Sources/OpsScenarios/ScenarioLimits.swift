/// Upper bounds that refuse absurd scenarios before they cost memory or time.
public enum ScenarioLimits {
    /// Largest scenario file: 100 MB (10^8 bytes), refused before it is read. A file listing
    /// 1,000,000 operations one entry each is 53–75 MB; larger groups are written with `repeat`.
    public static let maxFileBytes = 100_000_000
    /// Most operations after `repeat` expansion.
    public static let maxOperations = 1_000_000
    /// Largest transfer: 1 TB.
    public static let maxSize: Double = 1_000_000_000_000
    /// Fastest bandwidth: 100 GB/s.
    public static let maxBandwidth: Double = 100_000_000_000
    /// Longest latency, backoff or process duration: one day, in seconds.
    public static let maxSeconds: Double = 86_400
    /// Most retries per operation.
    public static let maxRetries = 1_000
    /// Highest default concurrency.
    public static let maxConcurrency = 10_000
}
