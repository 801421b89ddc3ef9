/// Where a simulated transfer stands: published once per chunk as one value.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes moved so far (kept across retries: a retry resumes).
    public var completedBytes: Int64
    /// Bytes in all.
    public var totalBytes: Int64
    /// Rate of the last chunk, bytes per second; 0 while waiting, backing off or finished.
    public var bytesPerSecond: Double
    /// Retries used so far.
    public var retries: Int

    public init(completedBytes: Int64 = 0, totalBytes: Int64, bytesPerSecond: Double = 0, retries: Int = 0) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.retries = retries
    }

    /// 0…1.
    public var fractionCompleted: Double {
        totalBytes > 0 ? min(1, Double(completedBytes) / Double(totalBytes)) : 0
    }
}

/// What a simulated operation does, for display.
public enum SimulatedWorkKind: String, Sendable, Codable, CaseIterable {
    case download, upload, process
}

/// The error a simulated attempt fails with.
public struct SimulatedTransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure plan's message.
    public var message: String
    /// Which attempt failed (1-based).
    public var attempt: Int

    public var description: String { message }
}
