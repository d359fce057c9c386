/// One thing a ``DeliveryQueue`` hands its deliverer: a value or the completion.
@usableFromInline
package enum DeliveryItem<Output, Failure: Error> {
  /// A value; the deliverer reports back (``DeliveryQueue/next()``) once it was delivered.
  case value(Output)
  /// The completion; nothing follows.
  case completion(Subscribers.Completion<Failure>)
}

/// The "one deliverer, others enqueue" discipline of the operators that deliver to one
/// subscriber what arrives from several sources at once (the inputs of `combineLatest` and
/// `zip`, an upstream and a downstream `request` for `buffer`).
///
/// A value type, kept inside an operator's state machine and guarded by the lock that guards
/// the machine; it never calls out. At most one caller at a time is the *deliverer*:
/// - ``offer(_:)`` and ``complete(_:droppingQueued:)`` hand the role to the caller when nobody
///   holds it (the caller then delivers what they return, after releasing the lock); otherwise
///   they queue what they were given, and return at once: the sender never waits.
/// - The deliverer delivers, then asks ``next()`` (under the lock again) for what to deliver
///   next, and keeps going until it returns `nil`, which also gives up the role.
///
/// Values are delivered in the order they were offered; `.finished` follows the values queued
/// before it, and a failure may drop them (``complete(_:droppingQueued:)``). A value offered
/// from inside the subscriber's `receive` (re-entrantly, on the delivering thread) is queued
/// too, and delivered after that `receive` returns: delivery never nests.
///
/// Queued values have already been counted against the subscriber's demand by the machine that
/// offers them, so the queue never holds more than the subscriber asked for.
///
/// Package-visible for CombineEx: `applyLatest(from:)`'s runs deliver an action's events
/// through one.
@usableFromInline
package struct DeliveryQueue<Output, Failure: Error> {
  @inlinable
  package init() {}

  /// Whether some caller holds the deliverer role.
  @usableFromInline
  var isDelivering = false
  /// Whether the completion was handed out or the queue was closed: nothing more is delivered.
  @usableFromInline
  var isClosed = false
  /// Values offered while a delivery was in progress, oldest first.
  @usableFromInline
  var values = ValueQueue<Output>()
  /// The completion, waiting for the queued values (or for the delivery in progress).
  @usableFromInline
  var completion: Subscribers.Completion<Failure>?

  /// Whether nothing is queued and no completion is waiting.
  @inlinable
  var isIdle: Bool { values.isEmpty && completion == nil }

  /// Offers a value whose unit of demand is already spent: returns it if the caller became the
  /// deliverer (and must deliver it now); otherwise it was queued (or dropped, once closed or
  /// completing).
  @inlinable
  package mutating func offer(_ value: Output) -> Output? {
    guard !isClosed, completion == nil else { return nil }
    if isDelivering {
      values.append(value)
      return nil
    }
    // Not delivering means nothing is queued: the value overtakes nothing.
    isDelivering = true
    return value
  }

  /// Queues the completion behind the queued values (or, with `droppingQueued`, in their
  /// place); returns what the caller must deliver if it became the deliverer. A second
  /// completion is ignored.
  @inlinable
  mutating func complete(
    _ completion: Subscribers.Completion<Failure>, droppingQueued: Bool
  ) -> DeliveryItem<Output, Failure>? {
    guard !isClosed, self.completion == nil else { return nil }
    if droppingQueued { values.removeAll() }
    self.completion = completion
    if isDelivering { return nil }
    isDelivering = true
    return next()
  }

  /// The deliverer's next item; `nil` gives up the deliverer role.
  @inlinable
  package mutating func next() -> DeliveryItem<Output, Failure>? {
    if !isClosed {
      if let value = values.popFirst() { return .value(value) }
      if let completion {
        self.completion = nil
        isClosed = true
        isDelivering = false
        return .completion(completion)
      }
    }
    isDelivering = false
    return nil
  }

  /// Drops everything queued: nothing more is delivered (a delivery in progress finishes, and
  /// its deliverer then finds nothing to do).
  @inlinable
  package mutating func close() {
    isClosed = true
    values.removeAll()
    completion = nil
  }
}
