extension Sequence {
  /// A publisher that publishes the elements of this sequence, then finishes.
  ///
  /// ```swift
  /// let cancellable = ["a", "b"].publisher.sink { print($0) }
  /// // Prints: a, b
  /// ```
  @inlinable
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}

extension Publishers {
  /// A publisher that publishes a given sequence of elements.
  ///
  /// Elements are produced as the subscriber requests them, one `next()` ahead so that the
  /// completion follows the last element without further demand. An empty sequence finishes at
  /// once. Each subscription iterates the sequence anew.
  ///
  /// ```swift
  /// let letters = Publishers.Sequence<[String], Never>(sequence: ["a", "b", "c"])
  /// let cancellable = letters.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: a, b, c, finished
  /// ```
  ///
  /// A `sequence.publisher` is the usual way to make one.
  @frozen
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Elements.Element

    /// The sequence of elements to publish.
    public let sequence: Elements

    /// Creates a publisher for a sequence of elements.
    @inlinable
    public init(sequence: Elements) {
      self.sequence = sequence
    }

    /// Attaches the subscriber, which receives elements as it requests them.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Elements.Element == S.Input {
      var iterator = sequence.makeIterator()
      if let first = iterator.next() {
        // The loop runs from inside `request(_:)`, as specialized code (see DrainState).
        let subscription = SequenceSubscription(
          downstream: subscriber, sequence: sequence, first: first, rest: iterator)
        // The subscription reports detach: `cleanUp()` runs when no delivery does.
        handOver(subscription, reportingDetachTo: subscriber)
      } else {
        completeAtOnce(subscriber, with: .finished)
      }
    }
  }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

/// The subscription of `Publishers.Sequence`: a lock-free production loop over ``DrainState``.
///
/// As Combine's, it shows its sequence as its description and in its mirror (child
/// `sequence`) until it ends, then "Sequence" and an empty `sequence`.
@usableFromInline
final class SequenceSubscription<
  Downstream: Subscriber, Elements: Sequence, Iterator: IteratorProtocol
>:
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Iterator.Element, Elements.Element == Iterator.Element {
  // @unchecked Sendable: `drain` is atomic; `live` is touched only by the thread that owns the
  // drainer role (or, after cancel, the one that cleans up).
  @usableFromInline
  let drain = DrainState()

  /// Runs ``produce()``: a closure without captures, made in specialized code, so that a
  /// `request(_:)` that reaches this class through `any Subscription` runs the specialized
  /// loop.
  @usableFromInline
  let producer: (SequenceSubscription) -> Void

  /// What the subscription holds until it ends (then `nil`: the subscriber and every element
  /// are released, even while the subscription itself is still referenced).
  ///
  /// One optional of one struct, rather than an optional per field: the unspecialized
  /// deinitializer looks up each generic field's type in the runtime's metadata cache, and
  /// this is two look-ups instead of three (`s.Sequence`, Docs/Performance.md).
  @usableFromInline
  var live: Live?

  /// The subscription's state while it lives.
  @usableFromInline
  struct Live {
    @usableFromInline
    var downstream: Downstream

    /// The next element, read one ahead so that `.finished` follows the last element at once.
    @usableFromInline
    var upcoming: Iterator.Element

    /// The rest of the sequence.
    @usableFromInline
    var iterator: Iterator

    /// The publisher's sequence, for the description and the mirror.
    @usableFromInline
    let sequence: Elements

    @inlinable
    init(downstream: Downstream, upcoming: Iterator.Element, iterator: Iterator, sequence: Elements)
    {
      self.downstream = downstream
      self.upcoming = upcoming
      self.iterator = iterator
      self.sequence = sequence
    }
  }

  @inlinable
  init(downstream: Downstream, sequence: Elements, first: Iterator.Element, rest: Iterator) {
    live = Live(downstream: downstream, upcoming: first, iterator: rest, sequence: sequence)
    producer = { $0.produce() }
  }

  @usableFromInline
  var description: String {
    reading { $0.map { String(describing: $0) } } ?? "Sequence"
  }

  @usableFromInline
  var customMirror: Mirror {
    let sequence: Elements? = reading { $0 }
    let child: Any = sequence.map { $0 as Any } ?? [Elements.Element]()
    return Mirror(self, children: ["sequence": child])
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  /// Reads the sequence while holding the drainer role; `nil` once ended, or while a delivery
  /// runs (the description is then the name alone).
  @usableFromInline
  func reading<T>(_ read: (Elements?) -> T?) -> T? {
    guard drain.borrow() else { return nil }
    let result = read(live?.sequence)
    if !drain.stopDraining() { producer(self) }
    return result
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    guard demand != .none, drain.add(demand) else { return }
    producer(self)
  }

  @inlinable
  func cancel() {
    if drain.cancel() { cleanUp() }
  }

  /// The production loop, run by the drainer only.
  ///
  /// The iterator, the look-ahead element and the downstream live in locals while the loop
  /// runs (only the drainer may touch them), and are written back when it pauses for demand.
  @inlinable
  func produce() {
    guard let downstream = live?.downstream, var element = live?.upcoming,
      var iterator = live?.iterator
    else { return finishDraining() }
    while true {
      guard let demand = drain.demandIfLive() else {
        cleanUp()
        return
      }
      if demand == DrainState.demandMask {
        // Unlimited demand stays unlimited: deliver the rest checking only for a cancel.
        return produceUnlimited(to: downstream, from: element, then: &iterator)
      }
      if demand == 0 {
        live?.iterator = iterator
        live?.upcoming = element
        if drain.stopDraining() { return }
        continue
      }
      drain.consumeOne(of: demand)
      let next = iterator.next()
      let more = downstream.receive(element)
      guard let next else { return finishAfterLast(to: downstream) }
      element = next
      if more != .none { _ = drain.add(more) }
    }
  }

  /// The loop once the demand is unlimited (a `Sink`'s): no demand to count or to add, one
  /// load per value to see a cancel, made from inside `receive(_:)` or from another thread.
  @inlinable
  func produceUnlimited(
    to downstream: Downstream, from first: Iterator.Element, then iterator: inout Iterator
  ) {
    var element = first
    while let next = iterator.next() {
      _ = downstream.receive(element)
      if drain.isEnded { return cleanUp() }
      element = next
    }
    _ = downstream.receive(element)
    finishAfterLast(to: downstream)
  }

  /// Ends the loop after the last element: unless the subscriber cancelled from inside
  /// `receive`, the completion follows at once, without waiting for more demand.
  @inlinable
  func finishAfterLast(to downstream: Downstream) {
    let wasLive = drain.demandIfLive() != nil
    drain.finish()
    cleanUp()
    if wasLive { downstream.receive(completion: .finished) }
  }

  /// Leaves the loop when there is no downstream (after a cancel): stop or clean up.
  @inlinable
  func finishDraining() {
    if drain.demandIfLive() == nil { cleanUp() } else { _ = drain.stopDraining() }
  }

  @inlinable
  func cleanUp() {
    // Runs when no delivery does and none will start (or just before the completion): a
    // `Sink` that cancelled can release its closures.
    if let downstream = live?.downstream { reportDetach(to: downstream) }
    live = nil
  }
}
