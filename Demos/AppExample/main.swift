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
import DemoSupport
import Foundation
import Logging
import OpsKit
import OpsKitPublisher
import OpsMonitor
import ServiceLifecycle
import Synchronization

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
// KVO-style observation of the queue, the same source on Linux and macOS.
let countToken = queue.observe(\.allOperationCount, options: [.new]) { _, change in
    if change.newValue == 0 { say("queue drained") }
}

// The publisher, the metrics server and the app's work run in one ServiceGroup. Ctrl-C, SIGTERM
// or a closed terminal (SIGHUP) shut it down gracefully, in reverse order: the work stops (its
// operations cancelled, the summary printed), then the metrics server, then the publisher (bye
// to viewers, socket and sidecar removed).
let (published, publishedNow) = AsyncStream.makeStream(of: Void.self)
let publishingService = ClosureService { [tcp = publishing.tcp] in
    defer { publishedNow.finish() }
    // The publisher logs "publishing AppExample/images on PATH" itself (stderr, swift-log).
    try publisher.start()  // `run()` below finds it started
    if let tcp, let port = publisher.tcpPort {
        say("and on tcp://\(tcp.host):\(port) (read token in \(tcp.readTokenFile))")
    }
    publishedNow.yield()
    try await publisher.run()
}
let work = AppWork(queue: queue, monitor: monitor, clock: clock, rounds: rounds, published: published)
var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: publishingService)]
if let server = exporting?.server { services.append(.init(service: server)) }
// A run of --rounds N that ends shuts the others down too.
services.append(.init(service: work, successTerminationBehavior: .gracefullyShutdownGroup))
let group = ServiceGroup(
    configuration: .init(
        services: services, gracefulShutdownSignals: [.sigterm, .sigint, .sighup],
        logger: Logger(label: "AppExample", factory: { _ in SwiftLogNoOpLogHandler() })))
do {
    try await group.run()
} catch {
    // A TCP port that cannot be bound is the --tcp-port flag's problem.
    let text = "\(error)"
    failUsage(text.hasPrefix("cannot listen on tcp://") ? "--tcp-port: " + text : text)
}
countToken.invalidate()
monitor.stop()
_ = exporting
