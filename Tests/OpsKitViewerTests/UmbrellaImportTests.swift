import OpsKitRemote
import Testing

/// `import OpsKitRemote` alone, the compatibility umbrella, still gives an app both sides:
/// the publisher, the viewer and what they share.
@Suite struct UmbrellaImportTests {
    @Test func oneImportNamesThePublisherTheViewerAndWhatTheyShare() throws {
        let options = QueuePublisher.Options()
        #expect(options.allowControl == false)
        #expect(RemoteTarget(parsing: "tcp://127.0.0.1:7391") == .tcp(host: "127.0.0.1", port: 7391))
        #expect(RemoteError("x").description == "x")
        #expect(RuntimeDirectory.path(environment: ["XDG_RUNTIME_DIR": "/run/user/1"]) == "/run/user/1/opsdash")
    }
}
