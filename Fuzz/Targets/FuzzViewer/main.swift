// Protocol messages as the viewer reads them (a hostile publisher, docs/PROTOCOL.md): each
// input line goes to ViewerCore.receive. What the viewer sends back is one JSON line; every
// picture it builds survives a keyframe round trip.
import FuzzSupport
@_spi(OpsDashInternals) import OpsKitViewer
import OpsMonitor
import OpsWire

let limits = MonitorStore.Limits(finishedOperations: 50, logEntries: 20)

fuzz { input in
    var viewer = ViewerCore(limits: limits)
    _ = viewer.hello(role: .controller, token: nil)
    for line in lines(input) {
        for output in viewer.receive(line) {
            switch output {
            case .send(let text):
                check(text.hasSuffix("\n") && text.dropLast().firstIndex(of: "\n") == nil, "not one line: \(text)")
                check((try? JSONLineParser.parse(Array(text.utf8.dropLast()))) != nil, "not JSON: \(text)")
            case .keyframe(_, let current):
                checkKeyframeRoundTrip(current, seq: viewer.lastSeq ?? 0, limits: limits)
            default:
                break
            }
        }
    }
    if viewer.isLive {
        checkKeyframeRoundTrip(viewer.builder.snapshot(), seq: viewer.lastSeq ?? 0, limits: limits)
    }
}
