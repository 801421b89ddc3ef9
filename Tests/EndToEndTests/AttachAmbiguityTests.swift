import Foundation
import OpsKitTesting
import Testing

/// Two instances of one app publish the same app/queue: `opsdash attach` by name says what
/// tells them apart (their pids and socket paths) instead of asking for the app/queue it was given.
@Suite(.ownThread) struct AttachAmbiguityTests {
    @Test func twoInstancesOfOneAppAreToldApartByPidAndSocketPath() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let first = try PublishingApp(["--speed", "4"], runtime: runtime)
        let second = try PublishingApp(["--speed", "4"], runtime: runtime)
        defer {
            first.stop()
            second.stop()
        }
        let sockets = [try #require(first.socketPath), try #require(second.socketPath)]
        let pids = [first.process.processIdentifier, second.process.processIdentifier]
        let environment = ["XDG_RUNTIME_DIR": runtime]
        for target in ["AppExample/images", "images"] {
            let result = try runOpsdash(["attach", "--headless", target], environment: environment)
            #expect(result.status == 2)
            #expect(
                result.stderr
                    == "opsdash: 2 published queues match \(target) (pids \(pids[0]), \(pids[1])): "
                    + "attach by socket path: \(sockets[0]) or \(sockets[1])\n")
            #expect(result.stdout.isEmpty)
        }
        let untargeted = try runOpsdash(["attach", "--headless"], environment: environment)
        #expect(untargeted.status == 2, "nothing attached: a usage error, as `attach NAME` with two matches")
        let ordered = zip(pids, sockets).sorted { $0.0 < $1.0 }
        #expect(
            untargeted.stderr
                == "opsdash: 2 published queues: AppExample/images runs as pids \(ordered[0].0), \(ordered[1].0): "
                + "attach one by socket path: opsdash attach \(ordered[0].1) or \(ordered[1].1)\n")
        let unknown = try runOpsdash(["attach", "--headless", "nosuch"], environment: environment)
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr
                == "opsdash: no published queue named nosuch in \(runtime)/opsdash; published: "
                + "AppExample/images (pid \(ordered[0].0), \(ordered[0].1)), "
                + "AppExample/images (pid \(ordered[1].0), \(ordered[1].1))\n")
        let listed = untargeted.stdout.split(separator: "\n")
        #expect(listed.count == 2, "\(untargeted.stdout)")
        for (line, (pid, socket)) in zip(listed, zip(pids, sockets)) {
            #expect(line.hasPrefix("AppExample/images: pid \(pid), since "), "\(line)")
            #expect(line.hasSuffix("(\(socket))"), "\(line)")
        }
    }
}
