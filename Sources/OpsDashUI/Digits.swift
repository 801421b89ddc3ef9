/// Whole numbers drawn as decimal digits straight into cells: a number that moves every frame
/// (the header's counts) costs no string built, measured and scanned again.
enum Digits {
    /// Columns `value` takes in decimal, with its minus sign: what `"\(value)"` is as wide as.
    static func count(_ value: Int) -> Int {
        var magnitude = value.magnitude
        var columns = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            columns += 1
        }
        return columns
    }
}

extension Canvas {
    /// Writes `value` in decimal from (`x`, `y`) in `style`, as `write("\(value)", ...)` draws
    /// it (clipped to the area); returns the column after it.
    @discardableResult
    mutating func writeDigits(_ value: Int, x: Int, y: Int, style: CellStyle = .plain) -> Int {
        writeScalars(x: x, y: y) { $0.put(digits: value, style: style) }
    }
}
