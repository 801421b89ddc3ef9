import OpsDashUI
import OpsMonitor
import Testing

@Suite struct HeaderContentTests {
    @Test func evictedCountShowsOnlyWhenNonZero() {
        let plain = render(Fixtures.state(Fixtures.midRun()))
        #expect(!plain.lines[1].contains("evicted"))
        var snapshot = Fixtures.midRun()
        snapshot.evictedCount = 250
        let evicted = render(Fixtures.state(snapshot))
        #expect(evicted.lines[1].hasSuffix("total 12  evicted 250"))
    }

    @Test func theCancelAllQuestionGoesAwayWhenNothingIsLeftToCancel() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        let done = OperationSnapshot(id: 1, name: "a", lifecycle: .finished, outcome: .succeeded)
        _ = reduce(&state, .tick(Fixtures.snapshot([done], version: 2)))
        #expect(state.prompt == nil)
    }

    /// On a narrow terminal the sort (and filter) segments are left out whole, never shown cut
    /// ("sort i"); a segment that must show is cut with an ellipsis.
    @Test func aNarrowHeaderLeavesOutWholeSegmentsOrCutsWithAnEllipsis() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 4
        for width in 60...80 {
            let line = render(Fixtures.state(snapshot, width: width, height: 24)).lines[0]
            #expect(line.contains("sort id") || !line.contains("sort"), "width \(width): \(line)")
        }
        let line = headerLine(
            snapshot, width: 60, label: "AppExample/images[4242]",
            detail: "disconnected: app went away; retrying in 8 s", link: .disconnected)
        #expect(line.contains("…"), "the cut segment ends with an ellipsis: \(line)")
        #expect(!line.contains("sort"))
        // The app's label and link state give way before the run state; no separator is left
        // with nothing after it.
        for width in 60...80 {
            let line = headerLine(
                snapshot, width: width, label: "AppExample/images[22503]", detail: "connected (read-only)",
                link: .connected)
            #expect(line.contains(" RUNNING "), "width \(width): \(line)")
            #expect(!line.contains("│  elapsed") && !line.contains("│ elapsed"), "width \(width): \(line)")
        }
    }

    /// An app that went away is not shown RUNNING (or PAUSED, IDLE) from its last picture:
    /// DISCONNECTED takes the run state's place and stays in view however narrow the header.
    @Test func aDisconnectedAppSaysSoInsteadOfItsLastRunState() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 4
        for (link, word) in [(SourceStatus.Link.disconnected, "DISCONNECTED"), (.connecting, "CONNECTING")] {
            for width in [60, 72, 80, 120] {
                let line = headerLine(
                    snapshot, width: width, label: "AppExample/images[28656]",
                    detail: "disconnected: app went away; retrying in 3 s", link: link)
                #expect(line.contains(" \(word) "), "width \(width): \(line)")
                #expect(!line.contains("RUNNING"), "width \(width): \(line)")
            }
        }
    }

    /// A segment cut where one of its parts ends still ends with an ellipsis: "running…", never
    /// a bare "running" whose counts are gone.
    @Test func aSegmentCutBetweenItsPartsEndsWithAnEllipsis() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 40
        for width in 60...130 {
            let line = headerLine(
                snapshot, width: width, label: "AppExample/images[19877]",
                detail: "disconnected: app went away; retrying in 1 s", link: .disconnected)
            if line.contains("running") {
                let cut = line.firstMatch(of: /running[^│ ]*( [0-9\/]*)?…/) != nil
                #expect(line.contains("/40") || cut, "\(line)")
            }
        }
    }

    /// Where the link state does not fit whole, its brief form shows whole and the label gives
    /// way: the countdown of a disconnected app rather than its reason cut ("app went away;
    /// retry…"), the role of a connected one rather than an empty slot after the label.
    @Test func aNarrowHeaderKeepsTheBriefLinkStateWhole() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 4
        let label = "AppExample/images[19877]"
        for width in 60...100 {
            let gone = headerLine(
                snapshot, width: width, label: label, detail: "disconnected: app went away; retrying in 3 s",
                link: .disconnected, brief: "retrying in 3 s")
            #expect(gone.contains("retrying in 3 s"), "width \(width): \(gone)")
            #expect(gone.contains(" DISCONNECTED "), "width \(width): \(gone)")
            if width >= 64 { #expect(gone.contains("AppEx"), "the label is cut, not dropped: width \(width): \(gone)") }
            let here = headerLine(
                snapshot, width: width, label: label, detail: "connected (read-only)", link: .connected,
                brief: "read-only")
            #expect(here.contains("read-only"), "width \(width): \(here)")
            #expect(here.contains(" RUNNING "), "width \(width): \(here)")
            #expect(!here.contains("]  │"), "no empty slot after the label: width \(width): \(here)")
        }
        // Wide enough, the whole link state shows.
        let wide = headerLine(
            snapshot, width: 140, label: label, detail: "disconnected: app went away; retrying in 3 s",
            link: .disconnected, brief: "retrying in 3 s")
        #expect(wide.contains("disconnected: app went away; retrying in 3 s"))
    }

    @Test func anUnlimitedQueueShowsInfinity() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = -1
        #expect(render(Fixtures.state(snapshot)).lines[0].contains("running 3/∞"))
        let ascii = render(Fixtures.state(snapshot, glyphs: .ascii))
        #expect(ascii.lines[0].contains("running 3/max"))
    }

    /// The header's first line at `width` for an attached app's `snapshot` and link state.
    private func headerLine(
        _ snapshot: QueueSnapshot, width: Int, label: String, detail: String, link: SourceStatus.Link,
        brief: String? = nil
    ) -> String {
        var state = Fixtures.state(snapshot, width: width, height: 24)
        _ = reduce(&state, .source(SourceStatus(label: label, detail: detail, link: link, brief: brief)))
        return render(state).lines[0]
    }
}
