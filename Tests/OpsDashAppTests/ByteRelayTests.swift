import Foundation
import OpsKitTesting
import Testing
@testable import OpsDashApp

/// `opsdash relay`'s copying, between socket pairs standing for the ssh channel and the app.
@Suite(.ownThread) struct ByteRelayTests {
    /// Two connected sockets.
    private static func pair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    private static func send(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Everything `descriptor` delivers until its end.
    private static func readAll(_ descriptor: Int32) -> String {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data += chunk[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a relay on its own thread between a viewer pair and an app pair; returns the
    /// viewer's and the app's ends and a wait for the relay's end.
    private static func start(_ relay: ByteRelay = ByteRelay()) throws -> (
        viewer: Int32, app: Int32, end: () -> ByteRelay.End
    ) {
        let (viewer, relayViewer) = try pair()
        let (app, relaySocket) = try pair()
        let box = EndBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.value = relay.run(input: relayViewer, output: relayViewer, socket: relaySocket)
            close(relayViewer)
            close(relaySocket)
            done.signal()
        }
        return (
            viewer, app,
            {
                done.wait()
                return box.value ?? .broken("no end")
            }
        )
    }

    /// The relay's end, written before `done` is signalled and read after it is waited for.
    private final class EndBox: @unchecked Sendable {
        var value: ByteRelay.End?
    }

    @Test func bytesGoBothWaysAndTheAppsEndIsPassedOnAfterItsLastBytes() throws {
        let (viewer, app, end) = try Self.start()
        Self.send("{\"cmd\":\"hello\"}\n", to: viewer)
        var chunk = [UInt8](repeating: 0, count: 64)
        let count = chunk.withUnsafeMutableBytes { read(app, $0.baseAddress, $0.count) }
        #expect(String(decoding: chunk[0..<max(count, 0)], as: UTF8.self) == "{\"cmd\":\"hello\"}\n")
        Self.send("{\"event\":\"welcome\"}\n{\"event\":\"bye\"}\n", to: app)
        close(app)
        #expect(Self.readAll(viewer) == "{\"event\":\"welcome\"}\n{\"event\":\"bye\"}\n")
        #expect(end() == .closed("the app closed the connection"))
        close(viewer)
    }

    @Test func theViewerClosingEndsTheRelayAndTheAppSeesItsEnd() throws {
        let (viewer, app, end) = try Self.start()
        Self.send("last words\n", to: viewer)
        close(viewer)
        #expect(end() == .closed("the viewer closed the connection"))
        #expect(Self.readAll(app) == "last words\n")
        close(app)
    }

    @Test func aViewerThatReadsNothingStallsTheRelayWhichEndsInsteadOfBlocking() throws {
        let (viewer, app, end) = try Self.start(ByteRelay(bufferLimit: 4_096, stallLimit: .milliseconds(200)))
        // The app writes until its socket is full: the relay holds at most 4 KiB and the
        // kernel's buffers the rest; nobody reads the viewer's end.
        _ = fcntl(app, F_SETFL, fcntl(app, F_GETFL) | O_NONBLOCK)
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 4_096)
        while block.withUnsafeBytes({ write(app, $0.baseAddress, $0.count) }) > 0 {}
        #expect(end() == .broken("a side took none of the waiting bytes for 0.2 seconds"))
        close(viewer)
        close(app)
    }
}
