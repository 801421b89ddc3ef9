#if !canImport(ObjectiveC)
import CReaderSlots
import Foundation
import Synchronization

// Writers: registering and removing observers. The reader count protocol that makes swapping
// lists safe is described at `readers` (KeyValueObserverRegistry.swift).
extension KeyValueObserverRegistry {
    /// Registers `handler` for the property `key` describes, on `owner`.
    @inlinable
    func register<Root: AnyObject & Sendable, Value>(
        _ key: TypedObservedKey<Value>, owner: Root, options: NSKeyValueObservingOptions,
        handler: @escaping @Sendable (Root, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let entry = HandlerEntry(registry: self, key: key, options: options, handler: handler)
        add(entry, owner: owner)
        return NSKeyValueObservation(entry: entry)
    }

    @usableFromInline
    func add(_ entry: ObservationEntry, owner: any AnyObject & Sendable) {
        let released = writer.withLock { state -> Released in
            if state.owner == nil { state.owner = owner }
            // Stored before the new list is published: a delivery that sees the list sees this.
            let type = Int(bitPattern: ObjectIdentifier(Swift.type(of: owner)))
            if !state.ownerTypeKnown {
                state.ownerTypeKnown = true
                ownerType.store(type, ordering: .sequentiallyConsistent)
            } else if !state.mixedOwnerTypes, ownerType.load(ordering: .relaxed) != type {
                state.mixedOwnerTypes = true
                ownerType.store(0, ordering: .sequentiallyConsistent)
            }
            let old = current.load(ordering: .relaxed)
            // `passRetained`: `current`'s +1 on a single entry (see `current`).
            let released =
                old == 0
                ? replace(old, with: Int(bitPattern: Unmanaged.passRetained(entry).toOpaque()), in: &state)
                : replace(old, with: Self.observers(Self.entries(old) + [entry]), in: &state)
            count.add(1, ordering: .releasing)
            if entry.options.contains(.prior) { priorCount.add(1, ordering: .releasing) }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Removes `entry`; what it releases is released after the lock (a handler may own anything).
    func remove(_ entry: ObservationEntry) {
        let released = writer.withLock { state -> Released in
            let old = current.load(ordering: .relaxed)
            let new: Int
            if old == Int(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) {
                new = 0  // the only observer
            } else {
                var entries = Self.entries(old)
                guard let index = entries.lastIndex(where: { $0 === entry }) else { return Released() }
                entries.remove(at: index)
                new = Self.observers(entries)
            }
            count.subtract(1, ordering: .releasing)
            if entry.options.contains(.prior) { priorCount.subtract(1, ordering: .releasing) }
            return replace(old, with: new, in: &state)
        }
        withExtendedLifetime(released) {}
    }

    /// A `current` value holding `entries` (the registry's +1).
    private static func observers(_ entries: [ObservationEntry]) -> Int {
        switch entries.count {
        case 0: 0
        // Both `passRetained`s below make `current`'s +1. A list's own `entries` array holds one
        // more reference on each entry (released with the list), which keeps its `borrowed`
        // copies valid; the entry's token (`NSKeyValueObservation`) holds another.
        case 1: Int(bitPattern: Unmanaged.passRetained(entries[0]).toOpaque())
        default: Int(bitPattern: Unmanaged.passRetained(ObserverList(entries)).toOpaque()) | 1
        }
    }

    /// Publishes `new` as the current observers (under `writer`). Returns what can be released
    /// now (after unlocking): the old observers and anything retired, when no delivery is under
    /// way; else the old observers wait in `retired` for the last delivery to leave. A delivery
    /// that starts after the swap reads the new value, so none can be reading what is released.
    private func replace(_ old: Int, with new: Int, in state: inout Writer) -> Released {
        var lengths: UInt64 = 0
        ObserverView(raw: new, registry: nil).forEach { lengths |= Self.lengthBit($0.key.name) }
        observedKeyLengths.store(lengths, ordering: .sequentiallyConsistent)
        current.store(new, ordering: .sequentiallyConsistent)
        guard old != 0 else { return Released() }
        let replaced = Self.takeObservers(old)
        // The look that pairs with a delivery's announcement in `withObservers` (see `readers`):
        // none means no delivery that could have read `old` is still under way.
        if noDeliveryUnderWay() {
            return Released(replaced: replaced, retired: state.retired.isEmpty ? [] : takeRetired(&state))
        }
        state.retired.append(replaced)
        hasRetired.store(true, ordering: .sequentiallyConsistent)
        // A delivery that left meanwhile may have missed `hasRetired`.
        return reclaimIfQuiet(&state)
    }

    /// Observers swapped out, to release after unlocking (their handlers may own anything).
    private struct Released {
        var replaced: AnyObject?
        var retired: [AnyObject] = []
    }

    /// The retired observers if no delivery is under way (under `writer`).
    private func reclaimIfQuiet(_ state: inout Writer) -> Released {
        // Every retired value was swapped out before this load (all under `writer`): 0 here
        // means each delivery that could read one has left, and a delivery starting now reads
        // the newer `current`.
        guard !state.retired.isEmpty, noDeliveryUnderWay() else { return Released() }
        return Released(retired: takeRetired(&state))
    }

    /// Whether no delivery is announced, by a reader slot or by the count (under `writer`,
    /// after storing `current` or `hasRetired`).
    private func noDeliveryUnderWay() -> Bool {
        #if os(Linux) && !OPSDASH_TSAN
        // A delivery announced by a slot only exists once some thread attached one (it fenced
        // that before its first read): until then, no system call.
        if !countedReadersOnly, opsdash_reader_slots_in_use() != 0 {
            // A refused fence (not expected once registered) proves nothing: keep what is retired.
            guard opsdash_reader_slots_fence() == 0 else { return false }
            if opsdash_reader_slots_hold(Unmanaged.passUnretained(self).toOpaque()) != 0 { return false }
        }
        #endif
        return readers.load(ordering: .sequentiallyConsistent) == 0
    }

    private func takeRetired(_ state: inout Writer) -> [AnyObject] {
        hasRetired.store(false, ordering: .sequentiallyConsistent)
        defer { state.retired = [] }
        return state.retired
    }

    /// Called by the last delivery to leave while something is retired.
    @usableFromInline
    func reclaim() {
        let released = writer.withLock { reclaimIfQuiet(&$0) }
        withExtendedLifetime(released) {}
    }

    /// The entries behind a `current` value (under `writer`, or with a reader announced).
    private static func entries(_ raw: Int) -> [ObservationEntry] {
        var entries: [ObservationEntry] = []
        ObserverView(raw: raw, registry: nil).forEach { entries.append($0) }
        return entries
    }
}
#endif
