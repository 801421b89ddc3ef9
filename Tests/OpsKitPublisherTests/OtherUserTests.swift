import Foundation
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
import RemoteTestSupport

/// The uid a second, real user runs as (`nobody`).
private let strangerUID: UInt32 = 65_534

/// How a connection attempt by another user ended.
private enum StrangerOutcome: Int32 {
    /// The connection was closed without a byte sent.
    case closedSilently = 0
    /// The publisher sent something (it accepted the stranger).
    case served = 1
    /// `connect` failed with EACCES: the directory or socket mode kept the stranger out.
    case permissionDenied = 2
    case connectFailed = 3
    case noAnswer = 4
    case couldNotSwitchUser = 10
}

/// Runs, in a forked child that switched to `strangerUID`, a connect to `socketPath`, a hello
/// and one read. The child only makes system calls on memory prepared before the fork.
private func connectAsStranger(_ socketPath: String) -> StrangerOutcome? {
    let address = UnsafeMutablePointer<sockaddr_un>.allocate(capacity: 1)
    defer { address.deallocate() }
    address.initialize(to: sockaddr_un())
    address.pointee.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.pointee.sun_path) { raw in
        for (index, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let hello = Array(#"{"cmd":"hello","min":1,"max":1}"#.utf8 + [0x0A])
    let helloBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: hello.count, alignment: 1)
    defer { helloBytes.deallocate() }
    helloBytes.copyBytes(from: hello)
    let answer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4_096, alignment: 1)
    defer { answer.deallocate() }
    let length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let streamType = UnixSocket.streamType

    let child = fork()
    if child == 0 {
        guard setgroups(0, nil) == 0, setgid(strangerUID) == 0, setuid(strangerUID) == 0 else {
            _exit(StrangerOutcome.couldNotSwitchUser.rawValue)
        }
        let descriptor = socket(AF_UNIX, streamType, 0)
        let connected = address.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        if connected != 0 {
            _exit(errno == EACCES ? StrangerOutcome.permissionDenied.rawValue : StrangerOutcome.connectFailed.rawValue)
        }
        _ = send(descriptor, helloBytes.baseAddress, helloBytes.count, Int32(MSG_NOSIGNAL))
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 5_000) > 0 else { _exit(StrangerOutcome.noAnswer.rawValue) }
        let count = recv(descriptor, answer.baseAddress, answer.count, 0)
        _exit(count > 0 ? StrangerOutcome.served.rawValue : StrangerOutcome.closedSilently.rawValue)
    }
    guard child > 0 else { return nil }
    var status: Int32 = 0
    guard waitpid(child, &status, 0) == child, status & 0x7F == 0 else { return nil }
    return StrangerOutcome(rawValue: (status >> 8) & 0xFF)
}

/// Lets `strangerUID` reach the socket through the file system, as a careless `chmod` would, so
/// that only the peer-credential check stands between it and the queue: the socket's directory
/// and the fixture's private directory above it become searchable, the socket writable.
private func openUpPath(to socketPath: String) {
    let directory = (socketPath as NSString).deletingLastPathComponent
    chmod(directory, 0o711)
    chmod((directory as NSString).deletingLastPathComponent, 0o711)
    chmod(socketPath, 0o666)
}

/// Another real user of the machine against a publisher, as root can arrange it (fork, switch to
/// `nobody`, connect): the per-user directory keeps it out, and where the file system lets it
/// in, the peer-credential check refuses it unless the app allowed its uid.
@Suite(.serialized, .enabled(if: geteuid() == 0, "needs root to act as a second user"))
struct OtherUserTests {
    @Test func theDirectoryKeepsAnotherUserOut() throws {
        let published = try Published()
        try published.publisher.start()
        #expect(connectAsStranger(published.publisher.socketPath) == .permissionDenied)
    }

    @Test func anotherUserThatGetsThroughTheFileSystemIsClosedWithoutAByte() throws {
        let published = try Published()
        try published.publisher.start()
        openUpPath(to: published.publisher.socketPath)
        #expect(connectAsStranger(published.publisher.socketPath) == .closedSilently)
        #expect(published.publisher.statistics()?.viewers == 0)
    }

    @Test func aRefusedUserIsLoggedOnceWithItsUidAndPid() throws {
        let log = CapturedLog()
        let published = try Published(logger: log.logger)
        try published.publisher.start()
        openUpPath(to: published.publisher.socketPath)
        #expect(connectAsStranger(published.publisher.socketPath) == .closedSilently)
        #expect(connectAsStranger(published.publisher.socketPath) == .closedSilently)
        let refusals = log.entries.filter { $0.message.contains("refused a viewer") }
        #expect(refusals.count == 1, "the second refusal is held back: \(refusals)")
        #expect(refusals.first?.level == .warning)
        #expect(
            refusals.first?.message.hasPrefix("refused a viewer of uid \(strangerUID) (pid ") == true, "\(refusals)")
    }

    @Test func anAllowedOtherUserIsServed() throws {
        let published = try Published { $0.allowedUIDs = [strangerUID] }
        try published.publisher.start()
        openUpPath(to: published.publisher.socketPath)
        #expect(connectAsStranger(published.publisher.socketPath) == .served)
    }
}
