import Foundation
import Testing

@_spi(OpsDashInternals) @testable import OpsKitViewer

/// `opsdash attach PATH.sock`: a socket the user names may live outside the runtime directory
/// (an `ssh -L` forward into /tmp), but it must be a socket of theirs that nobody else can swap.
@Suite struct NamedSocketTests {
    /// A fresh directory with `mode`, holding a bound Unix socket `s.sock`; returns the socket's path.
    private static func socket(inDirectoryWithMode mode: mode_t) throws -> (directory: String, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-ns-\(UUID().uuidString)")
            .path
        #expect(mkdir(directory, 0o700) == 0)
        let path = directory + "/s.sock"
        let descriptor = UnixSocket.make(AF_UNIX)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: Array(path.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        #expect(chmod(directory, mode) == 0)
        return (directory, path)
    }

    @Test func aSocketInAPrivateDirectoryIsAccepted() throws {
        let (directory, path) = try Self.socket(inDirectoryWithMode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: Never.self) { _ = try NamedSocket.verify(path) }
    }

    @Test func aSocketInAStickyWorldWritableDirectoryLikeTmpIsAccepted() throws {
        let (directory, path) = try Self.socket(inDirectoryWithMode: 0o1777)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: Never.self) { _ = try NamedSocket.verify(path) }
    }

    @Test func aSocketOthersCouldSwapIsRefused() throws {
        let (directory, path) = try Self.socket(inDirectoryWithMode: 0o777)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: RemoteError("refusing \(path): others may replace it in \(directory) (mode 777)")) {
            _ = try NamedSocket.verify(path)
        }
    }

    @Test func aRegularFileIsNotASocket() throws {
        let (directory, _) = try Self.socket(inDirectoryWithMode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/plain.sock"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: RemoteError("refusing \(file): not a socket")) { _ = try NamedSocket.verify(file) }
        #expect(throws: RemoteError("cannot use \(directory)/none.sock: No such file or directory")) {
            _ = try NamedSocket.verify(directory + "/none.sock")
        }
    }

    @Test func aSymlinkIsJudgedByWhereItLeadsAndResolved() throws {
        let (unsafe, socket) = try Self.socket(inDirectoryWithMode: 0o777)
        defer { try? FileManager.default.removeItem(atPath: unsafe) }
        let (safe, _) = try Self.socket(inDirectoryWithMode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: safe) }
        let link = safe + "/link.sock"
        #expect(symlink(socket, link) == 0)
        #expect(throws: RemoteError("refusing \(link) (\(socket)): others may replace it in \(unsafe) (mode 777)")) {
            _ = try NamedSocket.verify(link)
        }
        chmod(unsafe, 0o700)
        #expect(try NamedSocket.verify(link) == socket, "connected by its real path, not through the link")
    }

    @Test func everyDirectoryUpToTheRootCounts() throws {
        let (outer, _) = try Self.socket(inDirectoryWithMode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: outer) }
        let inner = outer + "/inner"
        #expect(mkdir(inner, 0o755) == 0)
        let (elsewhere, original) = try Self.socket(inDirectoryWithMode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let path = inner + "/s.sock"
        #expect(link(original, path) == 0)
        #expect(try NamedSocket.verify(path) == path)
        chmod(outer, 0o777)  // others could rename `inner` and put their own in its place
        #expect(throws: RemoteError("refusing \(path): others may replace it in \(outer) (mode 777)")) {
            _ = try NamedSocket.verify(path)
        }
    }
}
