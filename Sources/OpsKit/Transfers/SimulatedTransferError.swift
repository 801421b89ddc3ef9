/// The error a simulated attempt fails with.
public struct SimulatedTransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure plan's message.
    public var message: String
    /// Which attempt failed (1-based).
    public var attempt: Int

    public var description: String { message }
}
