// An app whose operations move real bytes: it starts a small HTTP server on 127.0.0.1, then
// downloads files from it and uploads to it through URLSession, each transfer an operation on an
// ObservableOperationQueue whose Foundation `Progress` the dashboard reads.
//
//   swift run NetworkExample                   # 3 downloads, 2 uploads at 1 MB/s each, published
//   opsdash attach                             # in another terminal: watch the bytes move
//   swift run NetworkExample --exit-when-done  # exits once every transfer has finished
//
// Flags: `--help` (NetworkArguments.swift). The transfer operation: TransferOperation.swift and
// TransferDelegate.swift; the server: FileServer.swift and FileRequestHandler.swift.
import DemoSupport
import Foundation
import Logging
import OpsKit
import OpsKitPublisher
import OpsMonitor
import ServiceLifecycle

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let options: NetworkArguments
do {
    switch try NetworkArguments.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(NetworkArguments.usage)
        exit(0)
    case .run(let parsed):
        options = parsed
    }
} catch {
    failUsage(error.description)
}

// The files the server has: download i is i × --size bytes.
let downloads = (0..<options.downloads).map { ("file-\($0 + 1).bin", Int64($0 + 1) * options.size) }
let server: FileServer
do {
    server = try FileServer(
        port: options.port, files: Dictionary(uniqueKeysWithValues: downloads), bytesPerSecond: options.rate,
        maxUpload: options.maxUpload)
} catch {
    failUsage("--port \(options.port): \(error)")
}
say("serving files on http://127.0.0.1:\(server.port)")

guard let base = URL(string: "http://127.0.0.1:\(server.port)") else { failUsage("no URL for port \(server.port)") }
var transfers: [TransferOperation] = []
for (name, size) in downloads {
    transfers.append(
        TransferOperation(
            name: name, request: request(base, "files", name, method: "GET"), direction: .download,
            expectedBytes: size))
}
for index in 0..<options.missing {
    let name = "missing-\(index + 1).bin"
    transfers.append(
        TransferOperation(
            name: name, request: request(base, "files", name, method: "GET"), direction: .download,
            expectedBytes: options.size))
}
for index in 0..<options.uploads {
    let name = "upload-\(index + 1).bin"
    let bytes = Int64(index + 1) * options.size
    transfers.append(
        TransferOperation(
            name: name, request: request(base, "uploads", name, method: "PUT"), direction: .upload(bytes: bytes),
            expectedBytes: bytes))
}

let queue = ObservableOperationQueue(name: "NetworkExample/\(options.publish)")
queue.maxConcurrentOperationCount = options.concurrent
let monitor = QueueMonitor(queue: queue)
var publishing = QueuePublisher.Options()
publishing.app = "NetworkExample"
publishing.allowControl = options.allowControl
let publisher = QueuePublisher(monitor: monitor, name: options.publish, options: publishing)

// The publisher, the file server and the transfers run in one ServiceGroup; a stop signal shuts
// them down in reverse order: the transfers are cancelled (their URLSession tasks too), the
// server closes, and the publisher says bye to viewers and removes its socket.
let (published, publishedNow) = AsyncStream.makeStream(of: Void.self)
let publishingService = ClosureService {
    defer { publishedNow.finish() }
    // The publisher logs "publishing NetworkExample/NAME on PATH" itself (stderr, swift-log).
    try publisher.start()  // `run()` below finds it started
    publishedNow.yield()
    try await publisher.run()
}
let work = TransferWork(
    queue: queue, monitor: monitor, publisher: publisher, server: server, transfers: transfers,
    waitForViewer: options.waitForViewer, exitWhenDone: options.exitWhenDone, published: published)
let group = ServiceGroup(
    configuration: .init(
        services: [
            .init(service: publishingService), .init(service: server),
            .init(service: work, successTerminationBehavior: .gracefullyShutdownGroup),
        ],
        gracefulShutdownSignals: [.sigterm, .sigint, .sighup],
        logger: Logger(label: "NetworkExample", factory: { _ in SwiftLogNoOpLogHandler() })))
do {
    try await group.run()
} catch {
    failUsage("\(error)")
}
monitor.stop()

/// A `method` request for `base`/`folder`/`name`.
func request(_ base: URL, _ folder: String, _ name: String, method: String) -> URLRequest {
    var request = URLRequest(url: base.appendingPathComponent(folder).appendingPathComponent(name))
    request.httpMethod = method
    return request
}
