import CombineExCore

/// The state behind a property that follows a publisher eagerly (``Property/init(initial:then:)``,
/// and every composition, fed by a ``PropertyRelay``).
///
/// It is a ``MutableProperty`` that can also finish, plus the subscription to the publisher it
/// follows:
/// - Delivery goes through a ``SubjectCore`` of the property kind (a re-entrant set is delivered
///   after the current delivery), so every subscriber sees the same order.
/// - The value and the `finished` flag are committed under the core's lock, atomically with
///   admitting the delivery, so `value` always agrees with the order of deliveries.
/// - A subscriber that arrives after the followed publisher finished receives the last value,
///   then `.finished`, like a subscriber of ``Property/init(value:)``. (The check and the attach
///   are one atomic step: a subscriber is either attached before the completion, and receives
///   the value then the completion through the core, or sees the storage finished.)
///
/// ## Lifetime
/// The storage holds the subscription to the followed publisher, whose subscriber refers back
/// to the storage weakly (``follow(_:)``), or only to its ``PropertyCell`` (a ``PropertyRelay``,
/// which the storage's death cancels): the followed publisher never keeps the storage alive. The storage
/// lives as long as the ``Property`` built on it, and as long as any of its subscribers: the
/// storage is its cell's core's `owner`, which the core retains from the first attach until the
/// last subscriber is removed or swept out, as a subject's core keeps its subject. When the last
/// of them goes, the storage is freed and its subscription to the followed publisher is
/// cancelled. (Each subscriber used to be wrapped in a `PropertyStorageSubscriber` holding the
/// storage: one more object per subscriber, a retain and a release per delivery, and a `Sink`
/// behind it counted every delivery with two atomic operations, not told that the core reports
/// detach; Benchmarks' j6.)
///
/// ## Fused maps
/// The storage of a `map` of a core-backed source has a ``sourceAttachment``: its subscribers
/// attach to the source's core (``MappedSubscriber``), and each holds the storage, as above; the
/// cell's core then has no subscriber, and the relay's values are only stored.
@usableFromInline
final class PropertyStorage<Output>: Publisher {
  @usableFromInline
  typealias Failure = Never

  /// The value and the subscribers, which the relay feeding this storage holds strongly (see
  /// ``PropertyCell``).
  @usableFromInline
  let cell: PropertyCell<Output>

  /// The subscription to the followed publisher. Guarded by `core.lock`; set once.
  private var upstream: AnyCancellable?

  /// For a fused `map`, how its subscribers attach to its source's core instead of this
  /// storage's (see ``PropertySourceAttachment``); `nil` otherwise. Set once, by `map`, before
  /// the property is returned, so before any subscriber comes.
  @usableFromInline
  var sourceAttachment: PropertySourceAttachment<Output>?

  @inlinable
  init(_ initialValue: Output) {
    cell = PropertyCell(initialValue)
    // Unretained: the storage holds the cell, hence the core, and outlives the core's use of
    // it. The core reads `owner` only when a subscriber attaches, which only `receive` does,
    // with the storage alive; the relay may keep the cell after the storage is gone, but
    // nothing attaches to it then.
    cell.core.owner = self
  }

  /// The value as of the last set. (Inlinable: ``Property/value`` reads it in the caller's
  /// module, specialized.)
  @inlinable
  var value: Output {
    cell.value
  }

  /// Subscribes to `values` once, for as long as the storage lives: each value is stored and
  /// published, and the completion finishes the storage.
  func follow<Values: Publisher>(_ values: Values)
  where Values.Output == Output, Values.Failure == Never {
    let subscription = values.sink(
      receiveCompletion: { [weak self] _ in self?.finish() },
      receiveValue: { [weak self] in self?.send($0) })
    cell.core.lock.withLock { upstream = subscription }
  }

  /// Keeps `subscription` (to the publisher the storage follows) for as long as the storage
  /// lives: for followers that subscribe on their own, as `lift(_:)` does.
  @usableFromInline
  func hold(_ subscription: AnyCancellable) {
    cell.core.lock.withLock { upstream = subscription }
  }

  /// Stores `value` and publishes it (ignored once finished).
  @inlinable
  func send(_ value: Output) {
    cell.send(value)
  }

  /// Finishes every subscriber; the value stays.
  @inlinable
  func finish() {
    cell.finish()
  }

  /// Attaches a subscriber, which keeps the storage alive until its subscription ends (the
  /// core keeps its owner while subscribers are attached). (Inlinable, as
  /// ``Property/receive(subscriber:)`` is: attaching in the subscriber's module specializes the
  /// delivery path for the subscriber's type.)
  @inlinable
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    if let sourceAttachment, !sourceAttachment.isDelivering() {
      return attach(subscriber, to: sourceAttachment)
    }
    var finishedValue: Output?
    let cell = cell
    cell.core.perform(cell.core.attachEvent(for: subscriber)) { _ in
      guard cell.isFinished else {
        cell.markObserved()
        return true
      }
      finishedValue = cell.currentValue
      return false
    }
    if let finishedValue {
      Just(finishedValue).receive(subscriber: subscriber)
    }
  }
}

extension PropertyStorage {
  /// Attaches a subscriber of a fused map to the map's source (``MappedSubscriber``); after the
  /// source finished, it receives the last value, then `.finished`, as from an unfused one.
  /// (The source, finished too, would also say so; the check spares it the attach.)
  @inlinable
  func attach<S: Subscriber>(_ subscriber: S, to sourceAttachment: PropertySourceAttachment<Output>)
  where S.Input == Output, S.Failure == Never {
    let cell = cell
    let finishedValue = cell.core.lock.withLock { cell.isFinished ? cell.currentValue : nil }
    if let finishedValue {
      return Just(finishedValue).receive(subscriber: subscriber)
    }
    if let sink = subscriber as? SubjectSink<Output, Never> {
      // A `sink` (``Property/sink(receiveCompletion:receiveValue:)``): attached without the
      // erased downstream (``MappedSink``). The cast is resolved at compile time where this is
      // specialized.
      return sourceAttachment.attachSink(sink, self)
    }
    let downstream = MappedDownstreamTo(subscriber, storage: self)
    if S.self is any SubscriptionReleasing.Type {
      sourceAttachment.attachReleasing(downstream)
    } else {
      sourceAttachment.attachRetaining(downstream)
    }
  }
}

extension PropertyStorage: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: `upstream` is guarded by `cell.core.lock`, and `cell` is itself
  // Sendable.
}

extension Property {
  /// Creates a property that starts with `initial` and follows `values`, which it subscribes to
  /// once, at once (see ``PropertyStorage``): the building block of `init(initial:then:)`.
  convenience init<Values: Publisher>(storing initial: Output, following values: Values)
  where Values.Output == Output, Values.Failure == Never {
    let storage = PropertyStorage(initial)
    storage.follow(values)
    self.init(
      currentValue: { storage.value }, publisher: AnyPublisher(storage), storage: storage,
      retaining: storage)
  }
}
