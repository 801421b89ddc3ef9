/// Values kept by ticket, where tickets grow by one per value taken (the queue's per-operation
/// ticket): finding, changing and removing a value is an index into a table, with no hashing.
///
/// A removed value leaves a hole until every older one is removed too, so memory is one slot
/// per ticket from the oldest present value's on; the holes at the front are dropped in bulk.
/// The queue's own books (`UnfinishedOperations`) and a monitor's tracked operations use it.
///
/// Public as SPI and inlinable throughout, so that OpsMonitor's table (another module) is
/// specialised: an unspecialised generic asks the runtime for `Optional<Element>`'s metadata at
/// every lookup and moves elements through value witnesses (~2,000 instructions per update or
/// remove). `@inlinable package` is not enough: this toolchain does not specialise a `package`
/// generic across modules.
@_spi(OpsDashInternals) public struct TicketSlots<Element> {
    @usableFromInline var slots: [Element?] = []
    /// `slots[..<head]` are all empty.
    @usableFromInline var head = 0
    /// The ticket of `slots[0]`.
    @usableFromInline var firstTicket: UInt64
    /// Values present.
    @usableFromInline var present = 0

    /// Values present.
    @_spi(OpsDashInternals) @inlinable public var count: Int { present }

    /// An empty table whose first `append` gets `firstTicket`.
    @_spi(OpsDashInternals) @inlinable public init(firstTicket: UInt64) {
        self.firstTicket = firstTicket
    }

    /// Makes room for `additional` appends. Grows at least geometrically: reserving the exact
    /// size on every one-value append would copy the whole table each time.
    @_spi(OpsDashInternals) @inlinable public mutating func reserve(_ additional: Int) {
        let needed = slots.count + additional
        guard needed > slots.capacity else { return }
        slots.reserveCapacity(max(needed, 2 * slots.capacity))
    }

    /// Adds `element` under the next ticket; returns that ticket.
    @_spi(OpsDashInternals) @inlinable public mutating func append(_ element: Element) -> UInt64 {
        slots.append(element)
        present += 1
        return firstTicket + UInt64(slots.count - 1)
    }

    /// Adds `element` under `ticket`, which may be older than the present ones or leave a gap;
    /// false (nothing changed) if `ticket` holds a value already. `element` is moved in when the
    /// caller gives it up (no retain of what it holds, and no release at the caller's end).
    @_spi(OpsDashInternals) @inlinable public mutating func insert(_ element: consuming Element, ticket: UInt64)
        -> Bool
    {
        if present == 0 {
            slots.removeAll(keepingCapacity: slots.capacity <= 4_096)
            head = 0
            firstTicket = ticket
        } else if ticket < firstTicket {
            slots.insert(contentsOf: repeatElement(nil, count: Int(firstTicket - ticket)), at: 0)
            head = 0
            firstTicket = ticket
        }
        let index = Int(ticket - firstTicket)
        if index < slots.count {
            guard isVacant(index) else { return false }
            slots[index] = consume element
            if index < head { head = index }
        } else {
            if index > slots.count { slots.append(contentsOf: repeatElement(nil, count: index - slots.count)) }
            slots.append(consume element)
        }
        present += 1
        return true
    }

    /// The value under `ticket`, if present.
    @_spi(OpsDashInternals) @inlinable public subscript(ticket: UInt64) -> Element? {
        guard let index = index(of: ticket) else { return nil }
        return slots[index]
    }

    /// Runs `body` on the value under `ticket` in place (nil, and `body` not run, if absent).
    @_spi(OpsDashInternals) @inlinable public mutating func update<T>(ticket: UInt64, _ body: (inout Element) -> T)
        -> T?
    {
        guard let index = index(of: ticket), !isVacant(index) else { return nil }
        // Changed where it lies. Moving it out and back destroyed and wrote the whole optional
        // through value witnesses, twice per tracked start; optional chaining through a
        // wrapper's mutating method measured ~250 instructions more per operation. The unwrap
        // cannot fail: the slot was found present just above.
        // swift-format-ignore: NeverForceUnwrap
        return body(&slots[index]!)
    }

    /// Removes and returns the value under `ticket`, if present (moved out: not copied, then
    /// released in its slot).
    @_spi(OpsDashInternals) @inlinable public mutating func remove(ticket: UInt64) -> Element? {
        guard let index = index(of: ticket), let element = slots[index].take() else { return nil }
        present -= 1
        while head < slots.count, isVacant(head) { head += 1 }
        if head == slots.count {
            firstTicket += UInt64(slots.count)
            slots.removeAll(keepingCapacity: slots.capacity <= 4_096)
            head = 0
        } else if head >= 1_024, head * 2 >= slots.count {
            slots.removeFirst(head)
            firstTicket += UInt64(head)
            head = 0
        }
        return element
    }

    /// The values present, oldest ticket first.
    @_spi(OpsDashInternals) @inlinable public var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(present)
        for case let element? in slots[head...] { result.append(element) }
        return result
    }

    /// Calls `body` with each present value and its ticket, oldest first.
    @_spi(OpsDashInternals) @inlinable public func forEachWithTicket(
        _ body: (_ ticket: UInt64, _ element: Element) -> Void
    ) {
        for index in head..<slots.count {
            if let element = slots[index] { body(firstTicket + UInt64(index), element) }
        }
    }

    /// The oldest present value that satisfies `predicate`.
    @_spi(OpsDashInternals) @inlinable public func first(where predicate: (Element) -> Bool) -> Element? {
        for case let element? in slots[head...] where predicate(element) { return element }
        return nil
    }

    /// The slot of `ticket`, if it is in the table's range.
    @inlinable
    func index(of ticket: UInt64) -> Int? {
        guard ticket >= firstTicket else { return nil }
        let index = Int(ticket - firstTicket)
        return index < slots.count ? index : nil
    }

    /// Whether slot `index` holds no value (its tag read in place, the value not copied).
    @inlinable
    func isVacant(_ index: Int) -> Bool {
        if case .none = slots[index] { return true }
        return false
    }
}

extension TicketSlots: Sendable where Element: Sendable {}
