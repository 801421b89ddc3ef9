import OpsMonitor

/// The operations table: a column-header line, then one line per visible row.
struct TableView {
    let state: DashboardState
    /// Rows from earlier frames, reused when their inputs didn't change.
    var cache: RenderCache? = nil

    /// Draws the table into `band`, listing rows from the state's scroll offset.
    func render(into buffer: inout CellBuffer, band: Layout.Band) {
        guard band.height > 0 else { return }
        let snapshot = state.snapshot
        let maxID = snapshot.operations.last?.id ?? 0
        let columns = TableColumn.layout(width: buffer.width, maxID: maxID)
        var x = 0
        for (column, width) in columns {
            let title = Format.fit(column.title, width, right: column.alignsRight)
            buffer.write(title, x: x, y: band.y, style: Theme.columnHeader)
            x += width + 1
        }
        let rows = state.rows
        let count = rows.count(in: snapshot)
        if count == 0 {
            let message =
                state.filter.isEmpty ? "no operations" : "no operations match \"\(state.filter)\""
            buffer.write(message, x: 1, y: band.y + 1, style: Theme.label)
            return
        }
        cache?.useTable(
            RenderCache.TableContext(
                width: buffer.width, idWidth: columns.first?.width ?? 0, glyphs: state.glyphs,
                needle: needle))
        for line in 0..<(band.height - 1) {
            let index = state.scrollOffset + line
            guard let operation = rows.operation(at: index, in: snapshot) else { break }
            let y = band.y + 1 + line
            let isSelected = operation.id == state.selectedID
            var key: RenderCache.TableKey?
            if let cache {
                let rowKey = RenderCache.TableKey(
                    operation: operation, why: WaitReason(operation, in: state),
                    elapsedSeconds: elapsedSeconds(operation), isSelected: isSelected)
                if cache.drawTableRow(id: operation.id, key: rowKey, y: y, into: &buffer) { continue }
                key = rowKey
            }
            renderRow(operation, columns: columns, into: &buffer, y: y)
            if isSelected { buffer.reverse(y: y, x: 0, width: buffer.width) }
            if let cache, let key { cache.storeTableRow(id: operation.id, key: key, y: y, from: buffer) }
        }
    }

    /// Draws one operation's cells.
    private func renderRow(
        _ operation: OperationSnapshot, columns: [(column: TableColumn, width: Int)],
        into buffer: inout CellBuffer, y: Int
    ) {
        var x = 0
        for (column, width) in columns {
            if column == .progress {
                ProgressBar(fraction: operation.fraction, style: barStyle(operation))
                    .render(into: &buffer, x: x, y: y, width: width, glyphs: state.glyphs)
            } else {
                let (text, style) = cell(column, operation)
                let fitted = Format.fit(
                    text, width, right: column.alignsRight, ellipsis: state.glyphs.ellipsis)
                if needle.isEmpty || !(column == .id || column == .name || column == .state) {
                    buffer.write(fitted, x: x, y: y, style: style)
                } else {
                    buffer.write(highlighted(fitted, needle, style), x: x, y: y, maxWidth: width)
                }
            }
            x += width + 1
        }
    }

    /// The filter text as matched: lowercased.
    private var needle: String { state.filter.lowercased() }

    private func barStyle(_ operation: OperationSnapshot) -> CellStyle {
        Theme.bar(operation.displayState)
    }

    /// The text and style of one cell.
    private func cell(_ column: TableColumn, _ operation: OperationSnapshot) -> (String, CellStyle) {
        let executing = operation.lifecycle == .executing
        switch column {
        case .id: return ("#\(operation.id)", Theme.label)
        case .kind: return (String(state.glyphs.kind(operation.kind)), .plain)
        case .name: return (operation.name, .plain)
        case .state:
            let state = operation.displayState
            return (state.word, state.style)
        case .progress: return ("", .plain)
        case .percent:
            let known = operation.totalBytes > 0 || operation.outcome == .succeeded
            return (known ? Format.percent(operation.fraction) : "", .plain)
        case .bytes: return (operation.amountText, .plain)
        case .rate: return (executing ? operation.rateText : "", CellStyle(foreground: .cyan))
        case .eta:
            let eta = Format.eta(
                remaining: operation.totalBytes - operation.completedBytes,
                bytesPerSecond: operation.bytesPerSecond)
            return (executing ? eta : "", .plain)
        case .elapsed: return (elapsed(operation), .plain)
        case .retries: return (operation.retries > 0 ? "\(operation.retries)" : "", Theme.warning)
        case .after:
            return (operation.dependencies.map { "#\($0)" }.joined(separator: ","), Theme.label)
        case .why: return WaitReason(operation, in: state).cell
        }
    }

    /// Whole seconds the TIME column shows, nil when it shows nothing.
    private func elapsedSeconds(_ operation: OperationSnapshot) -> Int64? {
        guard let started = operation.startedAt else { return nil }
        return ((operation.finishedAt ?? state.snapshot.time) - started).components.seconds
    }

    private func elapsed(_ operation: OperationSnapshot) -> String {
        guard let started = operation.startedAt else { return "" }
        return Format.duration((operation.finishedAt ?? state.snapshot.time) - started)
    }
}

/// Why an operation is not running (or how it ended), for the table's WHY column.
public enum WaitReason: Sendable, Equatable {
    /// Waiting on these unfinished dependencies.
    case dependencies([Int])
    /// Ready, but the queue is paused.
    case queuePaused
    /// Ready, but every slot is taken.
    case slotsBusy
    /// Executing, waiting out a retry back-off: retry `number` starts in `after`.
    case retrying(number: Int, after: Duration)
    /// Finished with a failure or cancellation message.
    case ended(String)
    /// Nothing to explain.
    case none

    /// The reason for `operation` under the state's snapshot; looks up each dependency in
    /// O(log n).
    public init(_ operation: OperationSnapshot, in state: DashboardState) {
        let snapshot = state.snapshot
        switch operation.lifecycle {
        case .waiting:
            let unfinished = operation.dependencies.filter {
                !(snapshot.operation(id: $0)?.hasFinished ?? true)
            }
            self = .dependencies(unfinished)
        case .ready:
            let limit = state.effectiveConcurrency
            if snapshot.isSuspended {
                self = .queuePaused
            } else if limit > 0 && snapshot.counts.executing >= limit {
                self = .slotsBusy
            } else {
                self = .none
            }
        case .executing:
            if let next = operation.nextAttemptAt {
                self = .retrying(number: operation.retries, after: max(.zero, next - snapshot.time))
            } else {
                self = .none
            }
        case .finished:
            if let message = operation.message, operation.outcome != .succeeded {
                self = .ended(message)
            } else {
                self = .none
            }
        }
    }

    /// The column's text and style.
    var cell: (String, CellStyle) {
        switch self {
        case .dependencies(let ids):
            let text =
                ids.isEmpty ? "needs deps" : "needs " + ids.map { "#\($0)" }.joined(separator: ",")
            return (text, DisplayState.waiting.style)
        case .queuePaused: return ("queue paused", CellStyle(foreground: .yellow, bold: true))
        case .slotsBusy: return ("slots busy", Theme.warning)
        case .retrying(let number, let after):
            return ("retry \(number) in \(Format.countdown(after))", Theme.warning)
        case .ended(let message): return (message, Theme.error)
        case .none: return ("", .plain)
        }
    }
}
