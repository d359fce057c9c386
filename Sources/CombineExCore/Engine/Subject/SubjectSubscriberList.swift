/// A subject's attached subscribers (its ``SubjectConduit`` instances), in subscription order,
/// each retained once by the list, manually, so that delivery walks it without reference
/// counting. Held inline by ``SubjectCore``, and touched only by the delivery token's holder.
///
/// While an event is being handled, entries are only appended, never removed: subscribers
/// cancelled then are skipped by their terminated flag and swept out (``removeAll(where:)``)
/// once the outermost event is handled. A subscriber cancelled outside any delivery is removed
/// on its own (``remove(_:)``): its entry becomes `nil` (a hole, so that the others keep their
/// order and their indices), and the holes are squeezed out once they outnumber the live
/// entries, so a cancel costs O(1), amortized, however many subscribers there are.
///
/// The list stores objects, not conduits of one type, so that it is not generic; the core
/// releases what it removes (``SubjectCore/releaseConduit(_:)``), after the list is consistent
/// again.
@usableFromInline
struct SubjectSubscriberList {
  /// The entries; `nil` entries are holes.
  @usableFromInline
  var entries: ContiguousArray<Unmanaged<AnyObject>?> = []

  /// How many entries are holes.
  @usableFromInline
  var holes = 0

  /// Where ``remove(_:)`` starts looking for the next subscriber to remove: the index of the
  /// last one removed. Subscriptions are usually cancelled in (or against) the order they were
  /// made, so the next one is found next to it.
  @usableFromInline
  var removalHint = 0

  @inlinable
  init() {}

  /// The number of entries, holes included: the bound of a delivery's walk.
  @inlinable
  var count: Int { entries.count }

  /// Whether no subscriber is attached.
  @inlinable
  var isEmpty: Bool { entries.isEmpty }

  /// The entry at `index`: a subscriber, or `nil` for a hole.
  @inlinable
  subscript(index: Int) -> Unmanaged<AnyObject>? { entries[index] }

  /// Appends a subscriber, retaining it.
  @inlinable
  mutating func append(_ conduit: AnyObject) {
    entries.append(Unmanaged.passRetained(conduit))
  }

  /// Removes the entries whose subscribers `isGone` says have gone, keeping the order of the
  /// others, and returns them (still retained: the caller releases them). The first removed
  /// entry is returned on its own, so that the usual sweep of one subscriber allocates nothing.
  @inlinable
  mutating func removeAll(
    where isGone: (Unmanaged<AnyObject>) -> Bool
  ) -> (first: Unmanaged<AnyObject>?, more: [Unmanaged<AnyObject>]) {
    var kept = 0
    var first: Unmanaged<AnyObject>?
    var more: [Unmanaged<AnyObject>] = []
    for index in entries.indices {
      guard let entry = entries[index] else { continue }
      if isGone(entry) {
        if first == nil { first = entry } else { more.append(entry) }
      } else {
        entries[kept] = entry
        kept += 1
      }
    }
    entries.removeLast(entries.count - kept)
    holes = 0
    removalHint = 0
    return (first, more)
  }

  /// Removes one subscriber and returns its entry (still retained: the caller releases it), or
  /// `nil` if it is not in the list. Its entry becomes a hole (or is dropped, at the end of the
  /// list); once holes outnumber live entries, they are squeezed out in one pass, so each
  /// removal costs O(1), amortized.
  @usableFromInline
  mutating func remove(_ conduit: AnyObject) -> Unmanaged<AnyObject>? {
    guard let index = index(of: conduit), let entry = entries[index] else { return nil }
    if index == entries.count - 1 {
      entries.removeLast()
      while let last = entries.last, last == nil {
        entries.removeLast()
        holes -= 1
      }
    } else {
      entries[index] = nil
      holes += 1
    }
    removalHint = index
    if holes > 8, holes * 2 > entries.count { squeezeHoles() }
    return entry
  }

  /// The index of `conduit`, looking outwards from `removalHint`.
  @usableFromInline
  func index(of conduit: AnyObject) -> Int? {
    let target = Unmanaged.passUnretained(conduit).toOpaque()
    let count = entries.count
    guard count > 0 else { return nil }
    let hint = min(removalHint, count - 1)
    var distance = 0
    while hint - distance >= 0 || hint + distance < count {
      let above = hint + distance
      if above < count, entries[above]?.toOpaque() == target { return above }
      let below = hint - distance
      if below >= 0, distance > 0, entries[below]?.toOpaque() == target { return below }
      distance += 1
    }
    return nil
  }

  /// Drops the holes, keeping the order of the live entries.
  @usableFromInline
  mutating func squeezeHoles() {
    var kept = 0
    var hint = 0
    for index in entries.indices {
      guard let entry = entries[index] else { continue }
      if index < removalHint { hint += 1 }
      entries[kept] = entry
      kept += 1
    }
    entries.removeLast(entries.count - kept)
    holes = 0
    removalHint = hint
  }
}

// MARK: Attaching and removing subscribers (token holder only)

extension SubjectCore {
  @inlinable
  func handleAttach(
    _ conduit: SubjectConduit<Output, Failure>,
    start: (SubjectConduit<Output, Failure>) -> Void
  ) {
    if !startReplaying(to: conduit), let completion {
      conduit.startCompleted(completion)
      return
    }
    subscribers.append(conduit)
    if keptOwner == nil { keptOwner = owner }
    start(conduit)
  }

  /// Removes terminated subscribers and releases them, once no event is being handled.
  /// Releasing may run deinitializers that call back into the subject: the list is already
  /// consistent when they do, and they see `depth == 0`.
  @inlinable
  func sweep() {
    needsSweep = false
    let released = subscribers.removeAll { entry in withConduit(entry) { $0.isTerminated } }
    if let first = released.first { releaseConduit(first) }
    for entry in released.more { releaseConduit(entry) }
    releaseOwnerIfUnsubscribed()
  }

  /// Removes one cancelled subscriber and releases it, outside any delivery.
  @usableFromInline
  func remove(_ conduit: SubjectConduit<Output, Failure>) {
    // Not found: a sweep already released it (the subject completed meanwhile).
    guard let entry = subscribers.remove(conduit) else { return }
    releaseConduit(entry)
    releaseOwnerIfUnsubscribed()
  }

  /// Lets go of the owner once no subscriber is attached (the last one was removed or swept
  /// out). Called last, with the subscriber list consistent and no event being handled: the
  /// release may run the subject's `deinit` (which cancels its upstreams), and the subscribers'
  /// releases just before may have attached new ones (then the owner is kept).
  @inlinable
  func releaseOwnerIfUnsubscribed() {
    guard subscribers.isEmpty, keptOwner != nil else { return }
    keptOwner = nil
  }

  /// Lets go of a subscriber the list no longer holds: its replay cursor, its subscriber, and
  /// the list's retain.
  @inlinable
  func releaseConduit(_ entry: Unmanaged<AnyObject>) {
    entry._withUnsafeGuaranteedRef { object in
      replayBuffer?.forget(object)
      unsafeDowncast(object, to: SubjectConduit<Output, Failure>.self).release()
    }
    entry.release()
  }
}
