/// The subscriber a ``SubjectConduitTo`` holds, until the subject lets go of it.
///
/// Noncopyable, so that the conduit's delivery path *borrows* it in place: calling the
/// subscriber (and, for a `sink`, its closures) costs no reference counting, as a `let` would,
/// yet the conduit can still drop it, and what its closures capture, when the stream ends or
/// the subscriber cancels (Combine's behaviour, which breaks `self.c = p.sink { self... }`
/// cycles) while the conduit itself lives on in an `AnyCancellable`.
///
/// The conduit is generic over this type itself, not over the subscriber's: a generic class's
/// deinitializer runs unspecialized code, which finds the metadata of a generic parameter in
/// the class's own, but would look up `HeldSubscriber<Downstream>`'s in the runtime's cache
/// (about 300 instructions per subscription).
@usableFromInline
enum HeldSubscriber<Downstream: Subscriber>: ~Copyable {
  /// The subject still delivers to the subscriber.
  case attached(Downstream)
  /// The subject forgot the subscriber (cancelled or completed): nothing is delivered.
  case released
}

/// What ``SubjectConduitTo`` needs from the subscriber it holds; ``HeldSubscriber`` is the one
/// conformer (the protocol exists so that the conduit can be generic over the held type).
@usableFromInline
protocol SubscriberSlot: ~Copyable {
  associatedtype Input
  associatedtype Failure: Error

  /// Hands the subscriber its subscription, telling it that the subject reports when it has
  /// forgotten it (`handOver(_:reportingDetachTo:)`).
  func start(_ subscription: any Subscription)

  /// Delivers a value.
  func receive(_ input: Input) -> Subscribers.Demand

  /// Delivers the completion.
  func receive(completion: Subscribers.Completion<Failure>)

  /// Hands the subscriber a subscription and the completion at once (a subject that already
  /// completed).
  func completeAtOnce(with completion: Subscribers.Completion<Failure>)

  /// Tells the subscriber that no delivery runs or will start, and lets go of it.
  mutating func release()

  /// The subscriber as a mirror shows it: `Optional(subscriber)`, or `nil` once released.
  var reflected: Any { get }
}

extension HeldSubscriber: SubscriberSlot {
  @usableFromInline
  typealias Input = Downstream.Input

  @usableFromInline
  typealias Failure = Downstream.Failure

  @inlinable
  func start(_ subscription: any Subscription) {
    switch self {
    case .attached(let downstream): handOver(subscription, reportingDetachTo: downstream)
    case .released: break
    }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    switch self {
    case .attached(let downstream): return downstream.receive(input)
    case .released: return .none
    }
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    switch self {
    case .attached(let downstream): downstream.receive(completion: completion)
    case .released: break
    }
  }

  @inlinable
  func completeAtOnce(with completion: Subscribers.Completion<Failure>) {
    switch self {
    case .attached(let downstream): CombineExCore.completeAtOnce(downstream, with: completion)
    case .released: break
    }
  }

  @inlinable
  mutating func release() {
    switch self {
    case .attached(let downstream):
      reportDetach(to: downstream)
    case .released:
      return
    }
    self = .released
  }

  @usableFromInline
  var reflected: Any {
    switch self {
    case .attached(let downstream): return Optional(downstream) as Any
    case .released: return Optional<Downstream>.none as Any
    }
  }
}
