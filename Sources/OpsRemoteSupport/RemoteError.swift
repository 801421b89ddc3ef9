/// Why publishing or attaching could not start; `description` is one line naming the problem.
public struct RemoteError: Error, Sendable, CustomStringConvertible, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
