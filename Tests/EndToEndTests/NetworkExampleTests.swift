import Foundation
import OpsKitTesting
import Testing

/// README "Real transfers": `Demos/Network` downloads from and uploads to its own HTTP server on
/// 127.0.0.1 through URLSession, and `opsdash attach --headless` sees each transfer's bytes: the
/// last `progress` before `finished` says every byte the server sent (download) or received
/// (upload), of a total that is the file's size; a missing file fails with its HTTP status.
@Suite(.ownThread) struct NetworkExampleTests {
    /// What the stream said of one transfer.
    struct Seen {
        var kind: String?
        var unit: String?
        var bytes: Int64?
        var total: Int64?
        var outcome: String?
        var message: String?
        /// Whether a `progress` line came after `finished` (it must not).
        var progressAfterFinished = false
    }

    static let size: Int64 = 250_000

    @Test func attachSeesEveryByteTheServerSentAndReceived() throws {
        let opsdash = try #require(opsdashBinaryPath())
        let binary = try #require(demoBinaryPath("NetworkExample"))
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let (app, appOut, appErr) = try startProcess(
            binary,
            [
                "--downloads", "2", "--uploads", "2", "--missing", "1", "--size", "\(Self.size)",
                "--rate", "1000000", "--wait-for-viewer", "--exit-when-done",
            ],
            environment: environment)
        let appWatchdog = ProcessWatchdog(app, seconds: 60)
        defer { appWatchdog.disarm() }
        // The publisher logs "publishing NetworkExample/transfers on PATH" once the socket is there.
        let appErrors = LineReader(appErr.fileHandleForReading)
        _ = try #require(appErrors.firstLine { $0.contains("publishing ") }, "the app published")
        let appErrorsRest = ReadAll(appErr.fileHandleForReading)

        // The app starts its transfers once this viewer is attached, and exits when they are
        // done: the viewer gets the bye and its output ends.
        let (viewer, viewerOut, viewerErr) = try startProcess(
            opsdash, ["attach", "--headless"], environment: environment)
        let viewerWatchdog = ProcessWatchdog(viewer, seconds: 60)
        defer { viewerWatchdog.disarm() }
        let viewerErrors = ReadAll(viewerErr.fileHandleForReading)
        let stream = String(decoding: viewerOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let appLines = String(decoding: appOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        app.waitUntilExit()
        viewer.waitUntilExit()
        #expect(app.terminationReason == .exit && app.terminationStatus == 0, "the app exits 0 when done")
        #expect(viewer.terminationStatus == 1, "exits 1 at the bye: a transfer failed (the missing file)")
        let viewerStderr = String(decoding: viewerErrors.wait(), as: UTF8.self)
        #expect(viewerStderr.isEmpty, "the viewer got the bye, not a lost connection: \(viewerStderr)")
        _ = (appErrors, appErrorsRest.wait())

        let seen = Self.transfers(in: stream)
        let server = Self.serverCounts(in: appLines)
        let expected: [(name: String, kind: String, size: Int64)] = [
            ("file-1.bin", "download", Self.size), ("file-2.bin", "download", 2 * Self.size),
            ("upload-1.bin", "upload", Self.size), ("upload-2.bin", "upload", 2 * Self.size),
        ]
        for transfer in expected {
            let entry = seen[transfer.name]
            #expect(entry?.kind == transfer.kind, "\(transfer.name)'s kind")
            #expect(entry?.unit == "bytes", "\(transfer.name) counts bytes")
            #expect(entry?.outcome == "succeeded", "\(transfer.name): \(entry?.message ?? "")")
            #expect(server[transfer.name] == transfer.size, "the server moved all of \(transfer.name)\n\(appLines)")
            #expect(entry?.bytes == transfer.size, "\(transfer.name)'s last progress says every byte")
            #expect(entry?.total == transfer.size, "\(transfer.name)'s total is its size")
            #expect(entry?.progressAfterFinished == false)
        }
        let missing = seen["missing-1.bin"]
        #expect(missing?.outcome == "failed")
        #expect(missing?.message?.contains("HTTP 404") == true, "why it failed: \(missing?.message ?? "nothing")")
    }

    /// Each transfer's kind and unit (from `added` or a snapshot), last `progress` and outcome,
    /// by name.
    static func transfers(in stream: String) -> [String: Seen] {
        var seen: [String: Seen] = [:]
        for line in stream.split(separator: "\n") {
            guard
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let event = object["event"] as? String, let name = object["op"] as? String
            else { continue }
            var entry = seen[name] ?? Seen()
            switch event {
            case "added", "snapshot_op":
                entry.kind = object["kind"] as? String
                entry.unit = object["unit"] as? String
                if event == "snapshot_op" { entry.record(object) }
            case "progress":
                if entry.outcome != nil { entry.progressAfterFinished = true }
                entry.record(object)
            case "state" where object["to"] as? String == "finished":
                entry.outcome = object["outcome"] as? String
                entry.message = object["message"] as? String
            default:
                break
            }
            seen[name] = entry
        }
        return seen
    }

    /// The bytes the app's server says it sent or received, by file: its lines
    /// "file-1.bin: succeeded; server sent 250000 bytes".
    static func serverCounts(in output: String) -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), let server = line.range(of: "; server ") else { continue }
            let words = line[server.upperBound...].split(separator: " ")
            guard words.count == 3, let bytes = Int64(words[1]) else { continue }
            counts[String(line[..<colon])] = bytes
        }
        return counts
    }
}

extension NetworkExampleTests.Seen {
    /// Takes `bytes`, `total` (and, from a snapshot, the outcome) of a `progress` or `snapshot_op` line.
    fileprivate mutating func record(_ object: [String: Any]) {
        bytes = (object["bytes"] as? NSNumber)?.int64Value
        total = (object["total"] as? NSNumber)?.int64Value
        if let outcome = object["outcome"] as? String {
            self.outcome = outcome
            message = object["message"] as? String
        }
    }
}
