import NIOCore
import OpsMonitor
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// Lines published together are encoded into one shared buffer and go to a viewer as slices of
/// it: one buffer per batch, whatever the number of lines, and the same lines in the same order.
@Suite struct PublisherBatchTests {
    private func streamingViewer(_ configuration: PublisherCore.Configuration = .init()) -> CoreHarness {
        var harness = CoreHarness(configuration: configuration)
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":1,"max":1}"#)
        harness.publish([], snapshot: QueueSnapshot())
        harness.flush()
        _ = harness.lines(1)
        return harness
    }

    private func buffers(_ outputs: [PublisherCore.Output]) -> [ByteBuffer] {
        outputs.flatMap { output -> [ByteBuffer] in
            if case .send(1, let buffers) = output { return buffers }
            return []
        }
    }

    @Test func linesPublishedTogetherGoOutAsOneSlice() {
        var harness = streamingViewer()
        harness.core.publish((1...50).flatMap { Sample.added($0) }, snapshot: nil, monitorTime: .zero)
        let sent = buffers(harness.core.flush(now: .zero))
        #expect(sent.count == 1)
        let lines = CoreHarness.split(sent)
        #expect(lines.count == 100)
        for (index, line) in lines.enumerated() {
            #expect(line.hasSuffix(#","seq":\#(index + 1)}"# + "\n"), "\(line)")
        }
    }

    @Test func theLineLimitAndBatchBoundariesCutTheSlices() {
        var configuration = PublisherCore.Configuration()
        configuration.batchLines = 30
        var harness = streamingViewer(configuration)
        harness.core.publish((1...20).flatMap { Sample.added($0) }, snapshot: nil, monitorTime: .zero)  // seq 1…40
        harness.core.publish((21...25).flatMap { Sample.added($0) }, snapshot: nil, monitorTime: .zero)  // 41…50
        let first = buffers(harness.core.flush(now: .zero))
        #expect(first.count == 1)
        #expect(CoreHarness.split(first).count == 30)
        let second = buffers(harness.core.flush(now: .zero))
        #expect(second.count == 2, "the rest of the first batch, then the second batch")
        let lines = CoreHarness.split(second)
        #expect(lines.count == 20)
        #expect(lines.first?.hasSuffix(#","seq":31}"# + "\n") == true)
        #expect(lines.last?.hasSuffix(#","seq":50}"# + "\n") == true)
    }

    @Test func aLargePublishIsCutIntoBatchesOfBoundedSize() {
        var configuration = PublisherCore.Configuration()
        configuration.batchLines = 100_000
        var harness = streamingViewer(configuration)
        harness.core.publish((1...2_000).flatMap { Sample.added($0) }, snapshot: nil, monitorTime: .zero)
        let sent = buffers(harness.core.flush(now: .zero))
        #expect(sent.count > 1)
        #expect(sent.allSatisfy { $0.readableBytes <= PublisherCore.batchBytes + 200 })
        let lines = CoreHarness.split(sent)
        #expect(lines.count == 4_000)
        #expect(lines.last?.hasSuffix(#","seq":4000}"# + "\n") == true)
    }
}
