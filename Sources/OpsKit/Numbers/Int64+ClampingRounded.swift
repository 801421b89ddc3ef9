extension Int64 {
    /// `value` rounded to a whole number and clamped to `Int64`'s range; 0 for NaN. For a rate or
    /// size read from elsewhere (a peer's line, a keyframe), which may be any `Double`: the
    /// plain conversion traps beyond the range.
    package init(clampingRounded value: Double) {
        let rounded = value.rounded()
        if rounded.isNaN {
            self = 0
        } else if rounded >= 9_223_372_036_854_775_808.0 {
            self = .max
        } else if rounded <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(rounded)
        }
    }
}
