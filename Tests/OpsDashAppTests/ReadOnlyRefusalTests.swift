import OpsKitPublisher
import Testing

@testable import OpsDashApp

/// A command refused because the app publishes read-only says what the app sets to allow it.
@Suite struct ReadOnlyRefusalTests {
    @Test func theRefusalNamesThePublisherOption() {
        // The option named is the one that exists: this keypath stops compiling if it is renamed.
        let option: WritableKeyPath<QueuePublisher.Options, Bool> = \.allowControl
        var options = QueuePublisher.Options()
        options[keyPath: option] = true
        #expect(options.allowControl)
        #expect(
            RemoteSource.appReadOnlyRefusal
                == "refused: read-only: the app did not allow control (QueuePublisher.Options.allowControl; over TCP, the control token too)"
        )
    }
}
