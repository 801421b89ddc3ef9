// An app that runs its own work on an ObservableOperationQueue and lets OpsDash watch it.
//
//   swift run AppExample            # publishes its queue and keeps adding work until Ctrl-C
//   swift run AppExample --rounds 2 # two rounds of work, then it exits (tests use this)
//   opsdash attach                  # in another terminal: the live dashboard of this app
//   swift run AppExample --metrics-port 9464   # also serves Prometheus metrics (AppMetrics.swift)
//
// Flags (`--help`, AppArguments.swift): --rounds N (0: until interrupted), --speed X (simulated
// time, default 4), --allow-control (viewers may cancel, pause, resume and change the limit),
// --tcp-port N (also publish over TCP on 127.0.0.1:N, 0 for any free port; the token files are
// made in the runtime directory: `opsdash attach tcp://127.0.0.1:N --token-file …/AppExample.read.token`),
// --metrics-port N. A bad value, or a port that cannot be bound, is one line on stderr and exit 2.
//
// It defines one custom asynchronous operation (a "thumbnail" step that renders tiles on another
// thread and reports each one, so the monitor shows its progress, rate and ETA like any
// transfer), uses OpsKit's simulated download for the network part, observes the queue with
// `observe(\.…)` like KVO on macOS, and attaches a QueueMonitor, the same monitor `opsdash` draws.
import Dispatch
import Foundation
import OpsKit
import OpsKitRemote
import OpsMonitor
import Synchronization

/// Set once SIGINT, SIGTERM or SIGHUP arrived.
final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// Turns SIGINT, SIGTERM and SIGHUP (its terminal closed) into `request` instead of ending the
/// process at once, so each of them gets the same graceful shutdown.
///
/// Call it first, before any other thread starts: it blocks the three signals in this thread,
/// and so in every thread started later, and a thread of its own takes them with `sigwait`. A
/// signal sent at any moment is then either waiting for that thread or taken by it, never lost
/// and never the default action (which would end the app and leave its socket behind).
func watchStopSignals(_ request: StopRequest) -> Thread {
    var blocked = stopSignalSet()
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    let watcher = Thread {
        var waitedFor = stopSignalSet()
        var number: Int32 = 0
        while true {
            if sigwait(&waitedFor, &number) == 0 { request.set() }
        }
    }
    watcher.name = "AppExample.signals"
    watcher.start()
    return watcher
}

/// SIGINT, SIGTERM and SIGHUP.
func stopSignalSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
    return set
}

/// The app's own asynchronous step: "renders" a thumbnail tile by tile on a background queue,
/// reporting each tile.
final class ThumbnailOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
    // Locking: `stopped` is atomic; everything else is immutable.
    let kind = OperationKind.process
    let progressStorage: ProgressStorage
    private let work = DispatchQueue(label: "thumbnails")
    private let tiles: Int
    private let millisecondsPerTile: Int
    private let stopped = Atomic<Bool>(false)

    init(name: String, tiles: Int, millisecondsPerTile: Int) {
        self.tiles = tiles
        self.millisecondsPerTile = millisecondsPerTile
        self.progressStorage = ProgressStorage(total: Int64(tiles), unit: .items)
        super.init()
        self.name = name
    }

    override func execute() {
        renderTile(1)
    }

    override func operationDidCancel() {
        stopped.store(true, ordering: .relaxed)
    }

    private func renderTile(_ tile: Int) {
        work.asyncAfter(deadline: .now() + .milliseconds(millisecondsPerTile)) { [weak self] in
            guard let self, !self.stopped.load(ordering: .relaxed) else { return }
            self.reportProgress(completed: Int64(tile))
            if tile < self.tiles {
                self.renderTile(tile + 1)
            } else {
                self.finish()  // idempotent: harmless if the operation was cancelled meanwhile
            }
        }
    }
}

// Ctrl-C, SIGTERM or a closed terminal (SIGHUP): stop adding work, say bye to viewers, remove
// the socket and its sidecar. Watched before anything else starts a thread.
let interrupted = StopRequest()
let signalWatcher = watchStopSignals(interrupted)

let options: AppArguments
do {
    switch try AppArguments.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(AppArguments.usage)
        exit(0)
    case .run(let parsed):
        options = parsed
    }
} catch {
    failUsage(error.description)
}
let rounds = options.rounds
let clock = LiveClock(speed: options.speed)
// One name for the queue wherever it shows: `opsdash attach` and the metrics' `queue` label
// both say AppExample/images.
let appName = "AppExample"
let queueName = "images"
let queue = ObservableOperationQueue(name: "\(appName)/\(queueName)")
queue.maxConcurrentOperationCount = 3
let monitor = QueueMonitor(queue: queue, clock: clock)
// Publish the queue so `opsdash attach` can watch it from another terminal.
var publishing = QueuePublisher.Options()
publishing.app = appName
publishing.allowControl = options.allowControl
if let port = options.tcpPort {
    // TCP is opt-in and needs a token: the files are created (mode 0600) in the runtime directory.
    let directory = RuntimeDirectory.path()
    do {
        publishing.tcp = try .init(
            port: port, readTokenFile: directory + "/AppExample.read.token",
            controlTokenFile: publishing.allowControl ? directory + "/AppExample.control.token" : nil)
    } catch {
        failUsage("--tcp-port: \(error)")
    }
}
let publisher = QueuePublisher(monitor: monitor, name: queueName, options: publishing)
let exporting = options.metricsPort.map {
    serveMetrics(on: $0, for: monitor, queueName: "\(appName)/\(queueName)", publisher: publisher)
}
do {
    // The publisher logs "publishing AppExample/images on PATH" itself (stderr, swift-log).
    try publisher.start()
    if let tcp = publishing.tcp, let port = publisher.tcpPort {
        say("and on tcp://\(tcp.host):\(port) (read token in \(tcp.readTokenFile))")
    }
} catch {
    // A TCP port that cannot be bound is the --tcp-port flag's problem.
    let text = "\(error)"
    failUsage(text.hasPrefix("cannot listen on tcp://") ? "--tcp-port: " + text : text)
}
// KVO-style observation of the queue, the same source on Linux and macOS.
let countToken = queue.observe(\.allOperationCount, options: [.new]) { _, change in
    if change.newValue == 0 { say("queue drained") }
}

/// One round of work: six downloads, each followed by its thumbnail.
func makeRound(_ round: Int) -> [Operation] {
    var operations: [Operation] = []
    for index in 1...6 {
        let download = DownloadOperation(
            name: "photo-\(round)-\(index).jpg",
            plan: TransferPlan(totalBytes: Int64(index) * 400_000, bandwidth: 800_000, latency: .milliseconds(200)),
            clock: clock, random: SeededGenerator(seed: UInt64(round * 10 + index)))
        let thumbnail = ThumbnailOperation(name: "thumb-\(round)-\(index)", tiles: 8, millisecondsPerTile: 60)
        thumbnail.addDependency(download)
        thumbnail.dependencyPolicy = .cancelIfAnyDependencyFailed
        operations += [download, thumbnail]
    }
    return operations
}

var round = 0
while !interrupted.isSet && (rounds == 0 || round < rounds) {
    round += 1
    let operations = makeRound(round)
    queue.addOperations(operations, waitUntilFinished: false)
    if round == 1 {
        // The demo's own failure plan, so a cancelled operation (and the thumbnail that depended
        // on it) shows from the start; no operator did this, and the reason says so.
        if let planned = operations[10] as? AsyncOperation {
            planned.cancel(reason: AppExampleText.plannedCancelReason)
            say("\(planned.name ?? "an operation"): \(AppExampleText.plannedCancelReason)")
        }
    }
    while queue.allOperationCount > 0 && !interrupted.isSet {
        let snapshot = monitor.snapshot()
        let counts = snapshot.counts
        say(
            "t=\(String(format: "%.1f", snapshot.time.seconds))s executing \(counts.executing)/\(snapshot.maxConcurrentOperationCount), waiting \(counts.waiting), done \(counts.finished)/\(counts.total)"
        )
        // Any operation that reports progress shows it: the simulated downloads (bytes) and the
        // app's own thumbnails (tiles) alike.
        for row in snapshot.operations where row.lifecycle == .executing && row.totalBytes > 0 {
            let unit = row.unit == .items ? "tiles" : "bytes"
            say(
                "  \(row.kind.rawValue) \(row.name): \(row.completedBytes)/\(row.totalBytes) \(unit), \(Int(row.bytesPerSecond))/s"
            )
        }
        Thread.sleep(forTimeInterval: 1)
    }
}
if interrupted.isSet { queue.cancelAllOperations() }
queue.waitUntilAllOperationsAreFinished()
say(AppExampleText.summary(monitor.snapshot().counts))
countToken.invalidate()
publisher.stop()
exporting?.server.shutdown()
monitor.stop()
_ = signalWatcher

/// Writes `line` to stdout at once, also into a file or a pipe (where `print` would hold it in a
/// buffer until exit), so "publishing on …" can be read while the app runs.
func say(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}
