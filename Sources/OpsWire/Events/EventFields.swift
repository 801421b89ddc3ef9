import OpsMonitor

/// Typed access to one line's fields, with errors that name the field.
struct EventFields {
    let object: FieldList
    let event: String

    init(object: FieldList, event: String) {
        self.object = object
        self.event = event
    }

    init(object: [String: JSONValue], event: String) {
        self.init(object: FieldList(object), event: event)
    }

    func error(_ name: String, _ problem: String) -> EventLineError {
        EventLineError(.badLine, "\(event): field \"\(name)\" \(problem)")
    }

    func has(_ name: String) -> Bool {
        if let value = object[name], value != .null { return true }
        return false
    }

    func int(_ name: String) throws(EventLineError) -> Int {
        guard let value = object[name] else { throw error(name, "is missing") }
        guard let number = value.intValue, let int = Int(exactly: number) else {
            throw error(name, "must be an integer")
        }
        return int
    }

    func int64(_ name: String) throws(EventLineError) -> Int64 {
        guard let value = object[name] else { throw error(name, "is missing") }
        guard let number = value.intValue else { throw error(name, "must be an integer") }
        return number
    }

    func optionalInt(_ name: String) throws(EventLineError) -> Int? {
        has(name) ? try int(name) : nil
    }

    func uint64(_ name: String) throws(EventLineError) -> UInt64 {
        let value = try int64(name)
        guard value >= 0 else { throw error(name, "must not be negative") }
        return UInt64(value)
    }

    func optionalUInt64(_ name: String) throws(EventLineError) -> UInt64? {
        has(name) ? try uint64(name) : nil
    }

    func double(_ name: String) throws(EventLineError) -> Double {
        guard let value = object[name] else { throw error(name, "is missing") }
        guard let number = value.doubleValue else { throw error(name, "must be a number") }
        return number
    }

    func bool(_ name: String) throws(EventLineError) -> Bool {
        guard let value = object[name] else { throw error(name, "is missing") }
        guard let flag = value.boolValue else { throw error(name, "must be true or false") }
        return flag
    }

    func string(_ name: String) throws(EventLineError) -> String {
        guard let value = object[name] else { throw error(name, "is missing") }
        guard let text = value.stringValue else { throw error(name, "must be a string") }
        return text
    }

    func optionalString(_ name: String) throws(EventLineError) -> String? {
        has(name) ? try string(name) : nil
    }

    /// Seconds as a number, to the nanosecond.
    func time(_ name: String) throws(EventLineError) -> Duration {
        let seconds = try double(name)
        guard seconds >= 0, seconds < 1e9 else {
            throw error(name, "must be seconds between 0 and 1e9 (got \(Self.quoted(object[name])))")
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// A number as the line gives it: an integer in full (1000000000000000, not 1e+15), any
    /// other number as Swift prints it.
    static func quoted(_ value: JSONValue?) -> String {
        switch value {
        case .int(let number)?: "\(number)"
        case .double(let number)?:
            number.rounded() == number && abs(number) < 1e18 ? "\(Int64(number))" : "\(number)"
        default: "?"
        }
    }

    func optionalTime(_ name: String) throws(EventLineError) -> Duration? {
        has(name) ? try time(name) : nil
    }

    func ints(_ name: String) throws(EventLineError) -> [Int] {
        guard let value = object[name] else { throw error(name, "is missing") }
        guard let items = value.arrayValue else { throw error(name, "must be an array of integers") }
        var result: [Int] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let number = item.intValue, let int = Int(exactly: number) else {
                throw error(name, "must be an array of integers")
            }
            result.append(int)
        }
        return result
    }

    func strings(_ name: String) throws(EventLineError) -> [String] {
        guard let value = object[name] else { throw error(name, "is missing") }
        guard let items = value.arrayValue else { throw error(name, "must be an array of strings") }
        var result: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw error(name, "must be an array of strings") }
            result.append(text)
        }
        return result
    }

    func enumValue<T: RawRepresentable>(_ name: String, _ type: T.Type) throws(EventLineError) -> T
    where T.RawValue == String {
        let text = try string(name)
        guard let value = T(rawValue: text) else {
            // Quoted as JSON: a peer's newline or escape sequence stays text in a one-line error.
            var quoted = ""
            JSONLinesEncoder.appendString(text, &quoted)
            throw error(name, "has unknown value \(quoted)")
        }
        return value
    }

    func optionalEnum<T: RawRepresentable>(_ name: String, _ type: T.Type) throws(EventLineError) -> T?
    where T.RawValue == String {
        has(name) ? try enumValue(name, type) : nil
    }

    func counts() throws(EventLineError) -> StateCounts {
        StateCounts(
            waiting: try int("waiting"), ready: try int("ready"), executing: try int("executing"),
            succeeded: try int("succeeded"), failed: try int("failed"), cancelled: try int("cancelled"))
    }
}
