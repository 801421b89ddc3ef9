/// A rectangle of cells in a `CellBuffer`: the area a widget draws in.
struct Rect: Sendable, Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

extension Layout.Band {
    /// The band across a screen `width` columns wide.
    func rect(width: Int) -> Rect { Rect(x: 0, y: y, width: width, height: height) }
}
