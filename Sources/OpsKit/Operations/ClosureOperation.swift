/// An `AsyncOperation` that runs a closure synchronously and finishes; what
/// `ObservableOperationQueue.addOperation(_ block:)` wraps blocks in so they are observable.
public final class ClosureOperation: AsyncOperation, @unchecked Sendable {
    private let block: @Sendable () -> Void

    /// Creates an operation that runs `block` once when started.
    public init(name: String? = nil, _ block: @escaping @Sendable () -> Void) {
        self.block = block
        super.init()
        self.name = name
    }

    public override func execute() {
        block()
        finish()
    }
}
