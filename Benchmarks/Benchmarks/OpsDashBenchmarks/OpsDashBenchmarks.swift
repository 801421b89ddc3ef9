// OpsDash benchmarks for package-benchmark: absolute numbers and malloc counters per workload.
// The side-by-side ratios docs/BENCHMARKS.md quotes come from the `Ratios` executable (same workloads).
//
//   swift package --package-path Benchmarks benchmark                    # all
//   OPSDASH_BENCH_SMOKE=1 swift package --package-path Benchmarks benchmark   # CI: one iteration each, tiny sizes
//   OPSDASH_BENCH_FULL=1 …                                               # adds the slow plain 20k chain
import Benchmark
import BenchWorkloads
import Foundation
import OpsKit
import OpsMonitor

// Custom metrics: listed in a configuration's metrics to be reported.
let opsPerSecond = BenchmarkMetric.custom("ops/s", polarity: .prefersLarger, useScalingFactor: false)
let monitorBytesPerOp = BenchmarkMetric.custom("monitor bytes/op", useScalingFactor: false)
let storeBytesPerOp = BenchmarkMetric.custom("store bytes/op", useScalingFactor: false)
let peakStoreKiB = BenchmarkMetric.custom("peak store KiB", useScalingFactor: false)
let subscriptionBytes = BenchmarkMetric.custom("bytes/subscription", useScalingFactor: false)
let eventsPerSecond = BenchmarkMetric.custom("events/s", polarity: .prefersLarger, useScalingFactor: false)

func adding(_ metric: BenchmarkMetric, to configuration: Benchmark.Configuration) -> Benchmark.Configuration {
    var configuration = configuration
    configuration.metrics.append(metric)
    return configuration
}

let benchmarks: @Sendable () -> Void = {
    let size = BenchSize.fromEnvironment
    let smoke = size.isSmoke
    // Short by default; in smoke mode every benchmark runs exactly once (no thresholds anywhere).
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: smoke ? 0 : 1,
        maxDuration: smoke ? .milliseconds(1) : .seconds(2),
        maxIterations: smoke ? 1 : 1_000)
    let once = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 0, maxDuration: .milliseconds(1), maxIterations: 1)
    let fewTimes = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: smoke ? 0 : 1, maxDuration: smoke ? .milliseconds(1) : .seconds(10),
        maxIterations: smoke ? 1 : 5)

    // 1. KVO delivery: per change, scaled ×1,000,000 (results are per change).
    let kvo = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: smoke ? 0 : 1,
        scalingFactor: smoke ? .kilo : .mega,
        maxDuration: smoke ? .milliseconds(1) : .seconds(2),
        maxIterations: smoke ? 1 : 20)

    Benchmark("1 KVO: direct closure call (baseline)", configuration: kvo) { (benchmark: Benchmark) throws in
        let sink = Sink()
        let callback = DirectCallback { sink.total &+= $0 }
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { callback.call(i) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("1 KVO: Mutex store + closure call (baseline)", configuration: kvo) { (benchmark: Benchmark) throws in
        let sink = Sink()
        let callback = DirectCallback { sink.total &+= $0 }
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { callback.storeAndCall(i) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("1 KVO: change delivered to one observer", configuration: kvo) { (benchmark: Benchmark) throws in
        let sink = Sink()
        let (gauge, token) = KVOBench.makeObservedGauge(sink: sink)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { gauge.set(i) }
        benchmark.stopMeasurement()
        token.invalidate()
        blackHole(sink.total)
    }
    Benchmark("1 KVO: change published, no observer", configuration: kvo) { (benchmark: Benchmark) throws in
        let gauge = Gauge()
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { gauge.set(i) }
        benchmark.stopMeasurement()
        blackHole(gauge.value)
    }

    // 1b. KVO subscription: per observe + invalidate pair, scaled ×1,000 (results are per pair).
    let subscription = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: smoke ? 0 : 1,
        scalingFactor: .kilo,
        maxDuration: smoke ? .milliseconds(1) : .seconds(2),
        maxIterations: smoke ? 1 : 200)
    Benchmark("1b KVO subscription: observe + invalidate", configuration: subscription) {
        (benchmark: Benchmark) throws in
        let sink = Sink()
        let gauges = (0..<1_000).map { _ in Gauge() }
        for gauge in gauges { gauge.observe(\.value, options: [.new]) { _, _ in }.invalidate() }
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            let token = gauges[i % gauges.count].observe(\.value, options: [.new]) { _, change in
                sink.total &+= change.newValue ?? 0
            }
            token.invalidate()
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("1b KVO subscription: live, one per object", configuration: adding(subscriptionBytes, to: once)) {
        (benchmark: Benchmark) throws in
        benchmark.measurement(
            subscriptionBytes, Int(KVOBench.bytesPerLiveSubscription(count: smoke ? 10_000 : 100_000)))
    }

    // 2. Monitoring overhead: one iteration = N operations added and drained.
    let queueOperations = size.queueOperations
    for kind in QueueKind.allCases {
        Benchmark(
            "2 Queue: \(queueOperations) async ops, \(kind.rawValue)", configuration: adding(opsPerSecond, to: fewTimes)
        ) { (benchmark: Benchmark) throws in
            benchmark.measurement(
                opsPerSecond,
                Int(Double(queueOperations) / QueueBench.run(kind, count: queueOperations)))
        }
    }

    // 3. Frame cost: one iteration = one frame (progress change + snapshot + reduce + render + diff).
    for tracked in size.frameSizes {
        Benchmark(
            "3 Frame 200x60: \(tracked) tracked ops",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], warmupIterations: smoke ? 0 : 10,
                maxDuration: smoke ? .milliseconds(1) : .seconds(2),
                maxIterations: smoke ? 1 : 5_000)
        ) { benchmark, bench in
            for _ in benchmark.scaledIterations { blackHole(bench.frame()) }
        } setup: {
            FrameBench(tracked: tracked)
        }
    }

    // 3b. Busy frame: one iteration = one frame at 50 finishes/s with 10 moving bars, 120×40.
    Benchmark(
        "3b Busy frame 120x40: 50 finishes/s, 10 bars",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], warmupIterations: smoke ? 0 : 10,
            maxDuration: smoke ? .milliseconds(1) : .seconds(2),
            maxIterations: smoke ? 1 : 5_000)
    ) { benchmark, bench in
        for _ in benchmark.scaledIterations { blackHole(bench.frame()) }
    } setup: {
        BusyFrameBench()
    }

    // 4. Memory: malloc counters of building a store / attaching a monitor; bytes per op as custom metric.
    let memoryOperations = size.memoryOperations
    Benchmark(
        "4 Memory: QueueMonitor attaches to \(memoryOperations) queued ops",
        configuration: adding(monitorBytesPerOp, to: once)
    ) { (benchmark: Benchmark) throws in
        benchmark.measurement(
            monitorBytesPerOp,
            Int(MemoryBench.monitorBytesPerOperation(count: memoryOperations)))
    }
    Benchmark("4 Memory: MonitorStore with \(memoryOperations) ops", configuration: adding(storeBytesPerOp, to: once)) {
        (benchmark: Benchmark) throws in
        benchmark.measurement(
            storeBytesPerOp,
            Int(MemoryBench.storeBytesPerOperation(count: memoryOperations)))
    }
    let boundedRun = size.boundedRunOperations
    Benchmark("4 Memory: bounded store, \(boundedRun) ops run through", configuration: adding(peakStoreKiB, to: once)) {
        (benchmark: Benchmark) throws in
        let result = MemoryBench.boundedRunPeakBytes(count: boundedRun)
        benchmark.measurement(peakStoreKiB, result.peak / 1024)
    }

    // 5. Dependency-heavy queues. Plain-queue chains are slow (quadratic): once each.
    for length in size.plainChains {
        Benchmark("5 Chain \(length): plain OperationQueue", configuration: once) { (_: Benchmark) throws in
            blackHole(ChainBench.chain(length: length, observable: false))
        }
    }
    for length in size.observableChains {
        Benchmark("5 Chain \(length): ObservableOperationQueue", configuration: fewTimes) { (_: Benchmark) throws in
            blackHole(ChainBench.chain(length: length, observable: true))
        }
    }
    let fanIn = size.fanIn
    Benchmark("5 Fan-in \(fanIn): ObservableOperationQueue", configuration: once) { (_: Benchmark) throws in
        blackHole(ChainBench.fanIn(width: fanIn, observable: true))
    }

    // 7. Headless throughput: one iteration = a batch of events encoded and written to /dev/null.
    let jsonEvents = size.jsonEvents
    Benchmark(
        "7 JSON Lines: \(jsonEvents) events to /dev/null",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, eventsPerSecond], warmupIterations: smoke ? 0 : 1,
            maxDuration: smoke ? .milliseconds(1) : .seconds(3), maxIterations: smoke ? 1 : 30)
    ) { benchmark, events in
        let fd = JSONLinesBench.openDevNull()
        defer { close(fd) }
        benchmark.measurement(
            eventsPerSecond,
            Int(Double(events.count) / JSONLinesBench.encodeAndWrite(events, fd: fd)))
    } setup: {
        JSONLinesBench.events(count: jsonEvents)
    }
}
