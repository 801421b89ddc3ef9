import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpsKit
import OpsKitTesting
import OpsKitMetrics
import OpsMetricsServer
import OpsMonitor
import Testing

@Suite(.ownThread) struct QueueMetricsTests {
    /// A queue, its monitor and metrics on a fresh Prometheus registry.
    struct Fixture {
        let queue = ObservableOperationQueue()
        let clock = ManualClock()
        let monitor: QueueMonitor
        let endpoint = PrometheusEndpoint()
        let metrics: QueueMetrics

        init(maxConcurrent: Int = 4) {
            queue.maxConcurrentOperationCount = maxConcurrent
            monitor = QueueMonitor(queue: queue, clock: clock)
            metrics = QueueMetrics(monitor: monitor, queueName: "images", factory: endpoint.factory)
        }

        func scrape() -> Exposition {
            metrics.update()
            return Exposition(endpoint.exposition())
        }
    }

    @Test func everyLabelValueExistsAtZeroBeforeAnyOperation() {
        let fixture = Fixture()
        let scraped = fixture.scrape()
        var expected: [String: Double] = [
            #"opsdash_operations_added_total{queue="images"}"#: 0,
            #"opsdash_queue_max_concurrent_operations{queue="images"}"#: 4,
            #"opsdash_queue_suspended{queue="images"}"#: 0,
            #"opsdash_operation_wait_seconds_count{queue="images"}"#: 0,
            #"opsdash_transfer_bytes_total{queue="images",direction="download"}"#: 0,
            #"opsdash_transfer_bytes_total{queue="images",direction="upload"}"#: 0,
        ]
        for outcome in ["succeeded", "failed", "cancelled"] {
            expected[#"opsdash_operations_finished_total{queue="images",outcome="\#(outcome)"}"#] = 0
            expected[#"opsdash_operation_duration_seconds_count{queue="images",outcome="\#(outcome)"}"#] = 0
        }
        for state in ["waiting", "ready", "executing"] {
            expected[#"opsdash_queue_operations{queue="images",state="\#(state)"}"#] = 0
        }
        for (series, value) in expected {
            #expect(scraped[series] == value, "\(series)")
        }
        for name in MetricName.allCases where !name.isRemote {
            #expect(scraped.types[name.rawValue] == name.type, "\(name.rawValue)")
        }
    }

    @Test func countsGaugesAndHistogramsFollowTheQueue() throws {
        let fixture = Fixture()
        fixture.queue.isSuspended = true
        let ops = (0..<6).map { index in ClosureOperation(name: "op\(index)") {} }
        fixture.queue.addOperations(ops, waitUntilFinished: false)
        #expect(eventually { fixture.monitor.snapshot().counts.ready == 6 })
        var scraped = fixture.scrape()
        #expect(scraped[#"opsdash_operations_added_total{queue="images"}"#] == 6)
        #expect(scraped[#"opsdash_queue_operations{queue="images",state="ready"}"#] == 6)
        #expect(scraped[#"opsdash_queue_suspended{queue="images"}"#] == 1)

        ops[0].cancel()
        fixture.clock.advance(by: .seconds(3))
        fixture.queue.isSuspended = false
        fixture.queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { fixture.monitor.subscribedOperationCount == 0 })
        scraped = fixture.scrape()
        #expect(scraped[#"opsdash_operations_added_total{queue="images"}"#] == 6)
        #expect(scraped[#"opsdash_operations_finished_total{queue="images",outcome="succeeded"}"#] == 5)
        #expect(scraped[#"opsdash_operations_finished_total{queue="images",outcome="cancelled"}"#] == 1)
        #expect(scraped[#"opsdash_queue_operations{queue="images",state="ready"}"#] == 0)
        #expect(scraped[#"opsdash_queue_suspended{queue="images"}"#] == 0)
        #expect(scraped[#"opsdash_operation_duration_seconds_count{queue="images",outcome="succeeded"}"#] == 5)
        // Five waited exactly the 3 s the clock moved while the queue was paused.
        let waitSum = try #require(scraped[#"opsdash_operation_wait_seconds_sum{queue="images"}"#])
        #expect(waitSum >= 15 && waitSum <= 18)
        #expect(scraped[#"opsdash_operation_wait_seconds_bucket{queue="images",le="2.5"}"#] == 0)

        // A second scrape exports nothing twice.
        #expect(fixture.scrape()[#"opsdash_operations_finished_total{queue="images",outcome="succeeded"}"#] == 5)
        #expect(
            scraped.labelNames.isSubset(of: ["queue", "outcome", "state", "direction", "le"]), "no per-operation label")
    }

    @Test func twoExportersOnOneMonitorEachSeeEveryFinish() throws {
        let fixture = Fixture()
        let second = PrometheusEndpoint()
        let other = QueueMetrics(monitor: fixture.monitor, queueName: "images", factory: second.factory)
        let ops = (0..<3).map { index in ClosureOperation(name: "op\(index)") {} }
        fixture.queue.addOperations(ops, waitUntilFinished: true)
        #expect(eventually { fixture.monitor.subscribedOperationCount == 0 })
        let first = fixture.scrape()
        other.update()
        let again = Exposition(second.exposition())
        let durations = #"opsdash_operation_duration_seconds_count{queue="images",outcome="succeeded"}"#
        #expect(first[durations] == 3)
        #expect(again[durations] == 3, "the second exporter's histogram has every finish too")
        #expect(again[#"opsdash_operations_finished_total{queue="images",outcome="succeeded"}"#] == 3)
    }

    @Test func transferredBytesAreCountedByDirection() {
        let fixture = Fixture()
        let plan = TransferPlan(totalBytes: 1_000, bandwidth: 1_000_000, chunkBytes: 1_000)
        let ops: [Operation] = [
            DownloadOperation(name: "d", plan: plan, clock: fixture.clock),
            UploadOperation(
                name: "u", plan: TransferPlan(totalBytes: 300, bandwidth: 1_000_000, chunkBytes: 300),
                clock: fixture.clock),
        ]
        fixture.queue.addOperations(ops, waitUntilFinished: false)
        #expect(
            fixture.clock.run(fixture.queue, step: .milliseconds(10)) {
                fixture.monitor.subscribedOperationCount == 0 && fixture.queue.allOperationCount == 0
            })
        let scraped = fixture.scrape()
        #expect(scraped[#"opsdash_transfer_bytes_total{queue="images",direction="download"}"#] == 1_000)
        #expect(scraped[#"opsdash_transfer_bytes_total{queue="images",direction="upload"}"#] == 300)
    }

    @Test(.enabled(if: prometheusToolsEnabled)) func promtoolAcceptsTheExposition() throws {
        let fixture = Fixture()
        fixture.queue.addOperations((0..<20).map { ClosureOperation(name: "op\($0)") {} }, waitUntilFinished: true)
        #expect(eventually { fixture.monitor.subscribedOperationCount == 0 })
        fixture.metrics.update()
        let result = try promtool(["check", "metrics"], input: fixture.endpoint.exposition())
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func serverAnswersMetricsAndNothingElse() async throws {
        let server = try MetricsHTTPServer(port: 0) { "opsdash_operations_added_total{queue=\"q\"} 1\n" }
        defer { server.shutdown() }
        let base = "http://127.0.0.1:\(server.port)"
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: base + "/metrics")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(
            (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix(
                "text/plain; version=0.0.4") == true)
        #expect(String(decoding: body, as: UTF8.self) == "opsdash_operations_added_total{queue=\"q\"} 1\n")
        let (_, missing) = try await URLSession.shared.data(from: try #require(URL(string: base + "/")))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func aPortInUseIsAnError() throws {
        let first = try MetricsHTTPServer(port: 0) { "" }
        defer { first.shutdown() }
        #expect(throws: (any Error).self) { _ = try MetricsHTTPServer(port: first.port) { "" } }
    }
}
