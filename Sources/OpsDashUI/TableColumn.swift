/// The operations table's columns, and which of them fit a given width.
enum TableColumn: CaseIterable, Sendable {
    case id, kind, name, state, progress, percent, bytes, rate, eta, wait, elapsed, retries, after, why

    /// The column's title.
    var title: String {
        switch self {
        case .id: "ID"
        case .kind: ""
        case .name: "NAME"
        case .state: "STATE"
        case .progress: "PROGRESS"
        case .percent: "%"
        case .bytes: "BYTES"
        case .rate: "RATE"
        case .eta: "ETA"
        case .wait: "WAIT"
        case .elapsed: "TIME"
        case .retries: "RT"
        case .after: "AFTER"
        case .why: "WHY"
        }
    }

    /// The column's width in cells; `name` flexes and this is its minimum.
    var width: Int {
        switch self {
        case .id: 6
        case .kind: 1
        case .name: 12
        case .state: 9
        case .progress: 12
        case .percent: 4
        case .bytes: 14
        case .rate: 10
        case .eta: 5
        case .wait: 5
        case .elapsed: 5
        case .retries: 2
        case .after: 12
        case .why: 13
        }
    }

    /// Whether text is aligned right.
    var alignsRight: Bool {
        switch self {
        case .percent, .bytes, .rate, .eta, .wait, .elapsed, .retries: true
        default: false
        }
    }

    /// The name width below which dropped columns are not put back.
    static let comfortableNameWidth = 20

    /// The name width past which the WHY column shares the spare width: two thirds of what is left
    /// over go to it, so long errors and dependency lists show on wide terminals.
    static let sharedNameWidth = 24

    /// Columns dropped first when the terminal is narrow, least important first.
    static let dropOrder: [TableColumn] = [
        .retries, .elapsed, .after, .bytes, .eta, .rate, .percent, .kind,
    ]

    /// The ID column's width for ids up to `maxID`: "#" and the digits, at least 3.
    static func idWidth(maxID: Int) -> Int {
        max(3, "#\(maxID)".count)
    }

    /// The columns and their widths for a table `width` cells wide, ids up to `maxID`.
    ///
    /// WAIT shows only where the name keeps `comfortableNameWidth` next to every other column.
    /// Then drops columns in `dropOrder` until the name column gets its minimum, puts back any
    /// dropped column that still leaves the name `comfortableNameWidth`, and gives the name
    /// whatever is left, sharing it with WHY past `sharedNameWidth`.
    static func layout(width: Int, maxID: Int) -> [(column: TableColumn, width: Int)] {
        let idWidth = idWidth(maxID: maxID)
        func size(_ column: TableColumn) -> Int { column == .id ? idWidth : column.width }
        var columns = allCases
        var dropIndex = 0
        func fixedWidth() -> Int {
            columns.reduce(0) { $0 + ($1 == .name ? 0 : size($1)) } + columns.count - 1
        }
        if fixedWidth() + comfortableNameWidth > width { columns.removeAll { $0 == .wait } }
        while fixedWidth() + TableColumn.name.width > width && dropIndex < dropOrder.count {
            let victim = dropOrder[dropIndex]
            columns.removeAll { $0 == victim }
            dropIndex += 1
        }
        // Put back smaller, more important columns that still leave the name comfortable.
        for candidate in dropOrder.prefix(dropIndex).reversed() {
            let trial = allCases.filter { ($0 != .wait && columns.contains($0)) || $0 == candidate }
            let previous = columns
            columns = trial
            if fixedWidth() + comfortableNameWidth > width { columns = previous }
        }
        var nameWidth = max(1, width - fixedWidth())
        var whyWidth = TableColumn.why.width
        if columns.contains(.why) && nameWidth > sharedNameWidth {
            let extra = nameWidth - sharedNameWidth
            whyWidth += extra * 2 / 3
            nameWidth -= extra * 2 / 3
        }
        return columns.map { ($0, $0 == .name ? nameWidth : $0 == .why ? whyWidth : size($0)) }
    }
}
