/// Everything that decides how a simulated transfer behaves.
public struct TransferPlan: Sendable, Equatable, Codable {
    /// Bytes to move (> 0).
    public var totalBytes: Int64
    /// Bytes per second at full speed (> 0).
    public var bandwidth: Int64
    /// Delay before the first byte of each attempt.
    public var latency: Duration
    /// Random variation of each chunk's duration, 0…1 (0.2 = ±20%).
    public var jitter: Double
    /// When and how attempts fail; nil never fails.
    public var failure: FailurePlan?
    /// Further attempts after a failed one.
    public var maxRetries: Int
    /// Wait before retry n is `retryBackoff × 2^(n-1)`.
    public var retryBackoff: Duration
    /// Bytes per chunk; progress is published once per chunk.
    public var chunkBytes: Int64

    public init(
        totalBytes: Int64, bandwidth: Int64, latency: Duration = .zero, jitter: Double = 0,
        failure: FailurePlan? = nil, maxRetries: Int = 0, retryBackoff: Duration = .seconds(1),
        chunkBytes: Int64? = nil
    ) {
        self.totalBytes = totalBytes
        self.bandwidth = bandwidth
        self.latency = latency
        self.jitter = jitter
        self.failure = failure
        self.maxRetries = maxRetries
        self.retryBackoff = retryBackoff
        // Default: about ten chunks a second at full bandwidth, at least 1 byte.
        self.chunkBytes = max(1, chunkBytes ?? max(1, bandwidth / 10))
    }
}

/// A planned failure: attempts fail once `atFraction` of the bytes have moved.
public struct FailurePlan: Sendable, Equatable, Codable {
    /// 0…1: how far an attempt gets before it fails.
    public var atFraction: Double
    /// The error's description.
    public var message: String
    /// How many attempts fail (the first `failingAttempts`); nil means every attempt.
    public var failingAttempts: Int?

    public init(atFraction: Double, message: String, failingAttempts: Int? = nil) {
        self.atFraction = atFraction
        self.message = message
        self.failingAttempts = failingAttempts
    }
}
