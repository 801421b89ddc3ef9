import OpsMonitor
import Testing

@testable import OpsDashUI

/// A table row drawn before is copied from the render cache while its key stands, and the key
/// holds only what the row's cells read: every one of those must still redraw the row. Each
/// step changes one thing about the middle row, and the table drawn through the cache must
/// then be exactly the table drawn without it.
@Suite struct TableRowKeyTests {
    /// One change to the middle row, named for the failure message.
    struct Step: CustomTestStringConvertible, Sendable {
        let name: String
        let change: @Sendable (inout Inputs) -> Void
        var testDescription: String { name }
    }

    static let steps: [Step] = [
        Step(name: "nothing") { _ in },
        Step(name: "renamed") { $0.operation.name = "renamed.bin" },
        Step(name: "named by its class") { $0.operation.nameByClass(prefix: "BlockOperation #") },
        Step(name: "named again") { $0.operation.name = "again.bin" },
        Step(name: "kind") { $0.operation.kind = .upload },
        Step(name: "bytes done") { $0.operation.completedUnits += 300_000 },
        Step(name: "bytes in total") { $0.operation.totalUnits += 4_000_000 },
        Step(name: "rate") { $0.operation.unitsPerSecond *= 3 },
        Step(name: "unit") { $0.operation.unit = .items },
        Step(name: "a retry") { $0.operation.retries += 1 },
        Step(name: "a retry due") { $0.operation.nextAttemptAt = .seconds(90) },
        Step(name: "no retry due") { $0.operation.nextAttemptAt = nil },
        Step(name: "a dependency") { $0.operation.dependencies.append(1) },
        Step(name: "why") { $0.why = .retrying(number: 2, after: .seconds(5)) },
        Step(name: "elapsed") { $0.elapsed = .seconds(61) },
        Step(name: "wait") { $0.wait = .seconds(7) },
        Step(name: "selected") { $0.isSelected = true },
        Step(name: "unselected") { $0.isSelected = false },
        Step(name: "ready") {
            $0.operation.lifecycle = .ready
            $0.elapsed = nil
        },
        Step(name: "waiting") { $0.operation.lifecycle = .waiting },
        Step(name: "failed") {
            $0.operation.lifecycle = .finished
            $0.operation.outcome = .failed
        },
        Step(name: "cancelled") { $0.operation.outcome = .cancelled },
        Step(name: "succeeded") { $0.operation.outcome = .succeeded },
    ]

    /// What a row is made from: its operation and the row's own values.
    struct Inputs: Sendable {
        var operation: OperationSnapshot
        var why = WaitReason.none
        var elapsed: Duration? = .seconds(3)
        var wait: Duration = .seconds(1)
        var isSelected = false

        var row: TableView.Row {
            TableView.Row(operation, why: why, elapsed: elapsed, wait: wait, isSelected: isSelected)
        }
    }

    /// Three running downloads; the middle one is changed by the steps.
    static func rows() -> [Inputs] {
        (1...3).map { id in
            Inputs(
                operation: OperationSnapshot(
                    id: id, name: "file-\(id).bin", kind: .download, lifecycle: .executing,
                    completedUnits: 500_000, totalUnits: 2_000_000, unitsPerSecond: 250_000,
                    addedAt: .zero, startedAt: .seconds(1)))
        }
    }

    @Test func everyValueARowShowsRedrawsIt() {
        let cache = RenderCache()
        let area = Rect(x: 0, y: 0, width: 120, height: 5)
        var rows = Self.rows()
        for step in Self.steps {
            step.change(&rows[1])
            let table = TableView(maxID: 3, rows: rows.map(\.row))
            var cached = CellBuffer(width: area.width, height: area.height)
            cache.beginFrame(height: area.height)
            table.render(into: &cached, area: area, cache: cache)
            cache.endFrame()
            var drawn = CellBuffer(width: area.width, height: area.height)
            table.render(into: &drawn, area: area)
            #expect(cached.lines == drawn.lines, "after \(step.name)")
            #expect(cached == drawn, "after \(step.name)")
        }
    }

    /// The column-header line and the column layout are kept by the table's width and its ID
    /// column's width: each must lay the table out again.
    @Test func everyLayoutInputRedrawsTheHeading() {
        let cache = RenderCache()
        var rows = Self.rows()
        for (step, (width, maxID)) in [(120, 3), (120, 3), (100, 3), (100, 1_000), (100, 99_999), (60, 99_999)]
            .enumerated()
        {
            rows[2].operation.id = maxID
            let table = TableView(maxID: maxID, rows: rows.map(\.row))
            let area = Rect(x: 0, y: 0, width: width, height: 5)
            var cached = CellBuffer(width: width, height: area.height)
            cache.beginFrame(height: area.height)
            table.render(into: &cached, area: area, cache: cache)
            cache.endFrame()
            var drawn = CellBuffer(width: width, height: area.height)
            table.render(into: &drawn, area: area)
            #expect(cached.lines == drawn.lines, "step \(step): \(width) wide, ids up to \(maxID)")
        }
    }

    /// The rows whose inputs stand are copied, not drawn again.
    @Test func anUnchangedRowIsCopied() {
        let cache = RenderCache()
        let area = Rect(x: 0, y: 0, width: 120, height: 5)
        var rows = Self.rows()
        var buffer = CellBuffer(width: area.width, height: area.height)
        cache.beginFrame(height: area.height)
        TableView(maxID: 3, rows: rows.map(\.row)).render(into: &buffer, area: area, cache: cache)
        cache.endFrame()
        rows[1].operation.completedUnits += 1_000
        cache.beginFrame(height: area.height)
        TableView(maxID: 3, rows: rows.map(\.row)).render(into: &buffer, area: area, cache: cache)
        #expect(cache.isUnchanged(row: 1))
        #expect(!cache.isUnchanged(row: 2))
        #expect(cache.isUnchanged(row: 3))
    }
}
