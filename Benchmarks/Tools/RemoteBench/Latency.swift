import BenchWorkloads
import Foundation
import OpsKit
import OpsKitPublisher
import OpsKitViewer
import OpsMonitor
import Synchronization

/// Change → viewer latency: 3,000 operations (200 with `--smoke`) added to a suspended queue at
/// 1,000 per second; latency = from just before `addOperation` to the viewer's `onOutput`
/// callback for its `added` event. Over the loopback Unix socket, and with `--ssh=URL` (and
/// `--ssh-opsdash=PATH`, the `opsdash` that runs `relay` there) also through `ssh URL/QUEUE
/// opsdash relay` in the same run, rows side by side, and the difference of their p99.
func printLatencyTable() {
    let changes = smoke ? 200 : 3_000
    var rows: [(String, Stats)] = [
        ("loopback Unix socket", measureLatency(changes: changes, name: "latency") { .unix($0.socketPath) })
    ]
    if let base = arguments.first(where: { $0.hasPrefix("--ssh=") })?.dropFirst(6) {
        guard let opsdash = arguments.first(where: { $0.hasPrefix("--ssh-opsdash=") })?.dropFirst(14) else {
            print("--ssh needs --ssh-opsdash=PATH (the opsdash that runs relay)")
            exit(2)
        }
        // The relay finds the publisher in this run's runtime directory.
        let runtime = (directory as NSString).deletingLastPathComponent
        setenv("OPSDASH_REMOTE_COMMAND", "XDG_RUNTIME_DIR=\(runtime) \(opsdash)", 1)
        guard let target = RemoteTarget(parsing: "\(base)/bench/latency-ssh") else {
            print("bad --ssh address \(base)")
            exit(2)
        }
        rows.append(
            ("ssh (\(base), opsdash relay)", measureLatency(changes: changes, name: "latency-ssh") { _ in target }))
    }
    print("| Change → viewer, \(changes) changes at 1,000/s | p50 | p99 | max | Budget |")
    print("|---|---|---|---|---|")
    func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
    for (index, (label, stats)) in rows.enumerated() {
        let budget = index == 0 ? "p99 < 50 ms" : "p99 within 20 ms of the Unix socket's"
        print(
            "| \(label) | \(ms(stats.median)) | \(ms(stats.percentile(0.99))) | \(ms(stats.samples.last ?? 0)) | \(budget) |"
        )
    }
    if rows.count == 2 {
        print("")
        print("ssh p99 − Unix socket p99: \(ms(rows[1].1.percentile(0.99) - rows[0].1.percentile(0.99)))")
    }
    print("")
}

/// Latencies of `changes` added operations seen by a viewer of a queue published as `name`,
/// connected to `target(publisher)`.
func measureLatency(changes: Int, name: String, target: (QueuePublisher) -> RemoteTarget) -> Stats {
    let queue = ObservableOperationQueue()
    queue.isSuspended = true
    let monitor = QueueMonitor(queue: queue, clock: LiveClock())
    let latencyPublisher = publisher(for: monitor, name: name)
    let sent = Mutex<[String: ContinuousClock.Instant]>([:])
    let seen = Mutex<[Double]>([])
    let viewer = RemoteViewer(
        target: target(latencyPublisher), reconnect: false,
        onOutput: { outputs in
            let now = ContinuousClock.now
            for case .event(.added(_, _, let name, _, _, _, _)) in outputs {
                if let start = sent.withLock({ $0.removeValue(forKey: name) }) {
                    let latency = (now - start).seconds
                    seen.withLock { $0.append(latency) }
                }
            }
        })
    if let error = viewer.start() {
        print("viewer: \(error)")
        exit(1)
    }
    while viewer.status.link != .connected {
        if viewer.isFinished {
            print("viewer of \(viewer.target): \(viewer.endReason.reason ?? "ended")")
            exit(1)
        }
        Thread.sleep(forTimeInterval: 0.01)
    }
    Thread.sleep(forTimeInterval: 0.2)
    let start = ContinuousClock.now
    for index in 0..<changes {
        let due = start + .microseconds(1_000 * index)
        while ContinuousClock.now < due { Thread.sleep(forTimeInterval: 0.0002) }
        let name = "change-\(index)"
        sent.withLock { $0[name] = ContinuousClock.now }
        queue.addOperation(ClosureOperation(name: name) {})
    }
    let deadline = ContinuousClock.now + .seconds(10)
    while seen.withLock({ $0.count }) < changes, ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 0.01)
    }
    viewer.stop()
    latencyPublisher.stop()
    queue.isSuspended = false
    monitor.stop()
    return Stats(seen.withLock { $0 })
}
