/// A rectangle of cells in a `CellBuffer`: the area the layout gives a widget, which draws
/// only inside it.
public struct Rect: Sendable, Equatable {
    /// The first column.
    public var x: Int
    /// The first row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// `width × height` cells from column `x`, row `y`; negative sizes are treated as zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The column right of the last one.
    public var maxX: Int { x + width }
    /// The row below the last one.
    public var maxY: Int { y + height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// Cells in the rectangle.
    public var area: Int { width * height }

    /// Whether cell (`column`, `row`) is inside.
    public func contains(column: Int, row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// The part of this rectangle inside `other` (empty, at this one's origin, when they don't meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard left < right, top < bottom else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
