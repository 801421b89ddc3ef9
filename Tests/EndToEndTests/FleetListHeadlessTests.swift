import Foundation
import OpsKitTesting
import Testing

/// `opsdash attach --list --headless` against real publishing apps: one JSON line per app
/// with its counts, its control setting, and no viewer added by the asking.
@Suite(.ownThread) struct FleetListHeadlessTests {
    @Test func eachPublishedAppIsOneJSONLineWithItsCounts() throws {
        _ = try OpsdashBuild.debug.binary()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let empty = try runOpsdash(["attach", "--list", "--headless"], environment: environment)
        #expect(empty.status == 0, "nothing published is no error: \(empty.stderr)")
        #expect(empty.stdout.isEmpty)

        let readOnly = try PublishingApp(["--rounds", "0"], runtime: runtime)
        defer { readOnly.stop() }
        let steerable = try PublishingApp(["--rounds", "0", "--allow-control"], runtime: runtime)
        defer { steerable.stop() }
        let result = try runOpsdash(["attach", "--list", "--headless"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let objects = try lines.map { line in
            try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "a JSON object: \(line)")
        }
        #expect(objects.count == 2, "\(result.stdout)")
        let byPID = Dictionary(uniqueKeysWithValues: objects.map { (($0["pid"] as? Int) ?? 0, $0) })
        let plain = try #require(byPID[Int(readOnly.process.processIdentifier)])
        let control = try #require(byPID[Int(steerable.process.processIdentifier)])
        #expect(plain["control"] as? Bool == false)
        #expect(control["control"] as? Bool == true)
        for object in [plain, control] {
            #expect(object["app"] as? String == "AppExample")
            #expect(object["queue"] as? String == "images")
            #expect(object["state"] as? String == "live", "it answered: \(object)")
            #expect(object["viewers"] as? Int == 0, "a summary connection is no viewer")
            for count in ["waiting", "ready", "executing", "succeeded", "failed", "cancelled", "limit"] {
                #expect(object[count] is Int, "\(count) in \(object)")
            }
            #expect(object["host"] as? String == ProcessInfo.processInfo.hostName)
            #expect(object["last_seen"] is Double)
            #expect(object["throughput"] is [Any])
        }
    }
}
