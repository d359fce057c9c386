/// What `sink` attaches to a core subject, directly or through `map`, `filter` and
/// `compactMap` (`Publisher._attachesSubscribersToSubject`), instead of a ``Subscribers/Sink``: the two
/// closures alone, held by the subject's own subscription (a ``SubjectConduitTo``).
///
/// A `subject.map { ... }.sink { ... }` is then two objects, the subscription and the
/// `AnyCancellable` that holds it, where a `Subscribers.Sink` takes four (the sink, its
/// closures, the subscription, the `AnyCancellable`). The behaviour is the sink's: unlimited
/// demand, the subject's terminated flag stops deliveries at once on cancel, and the closures
/// (with the `map`'s) are released once the subject has forgotten the subscriber, after a
/// cancel or the completion, when no delivery is running.
///
/// (`package`: CombineEx's fused property `map` attaches one to its source's subject wrapped with
/// the mapped value, `MappedSink`.)
@usableFromInline
package struct SubjectSink<Input, Failure: Error>: Subscriber, CustomStringConvertible {
  @usableFromInline
  let receiveValue: (Input) -> Void

  @usableFromInline
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  /// Where ``receive(subscription:)`` puts the subscription: a variable of the `sink` call that
  /// attaches this subscriber. A subject hands a new subscriber its subscription before its
  /// `receive(subscriber:)` returns (it waits for its delivery token if another thread holds
  /// it), so the variable is there; nothing uses the pointer afterwards.
  @usableFromInline
  let subscriptionSlot: UnsafeMutablePointer<(any AnyObject & Subscription)?>

  @inlinable
  package init(
    receiveValue: @escaping (Input) -> Void,
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    subscriptionSlot: UnsafeMutablePointer<(any AnyObject & Subscription)?>
  ) {
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
    self.subscriptionSlot = subscriptionSlot
  }

  /// A new identifier: nothing reads the identity of this subscriber, which never leaves the
  /// subject's subscription (storing one would cost a heap block size class per subscription).
  @usableFromInline
  package var combineIdentifier: CombineIdentifier { CombineIdentifier() }

  @usableFromInline
  package var description: String { "Sink" }

  @inlinable
  package func receive(subscription: any Subscription) {
    subscriptionSlot.pointee = classBound(subscription)
    subscription.request(.unlimited)
  }

  @inlinable
  package func receive(_ input: Input) -> Subscribers.Demand {
    receiveValue(input)
    return .none
  }

  @inlinable
  package func receive(completion: Subscribers.Completion<Failure>) {
    receiveCompletion(completion)
  }
}

// The subject delivers nothing after a cancel and forgets the subscriber then, which releases
// the closures: the subscription (the `AnyCancellable`'s target) may be kept for ever.
extension SubjectSink: SubscriptionReleasing {}

// The publishers that attach every subscriber, before `receive(subscriber:)` returns, to a
// subject built on `SubjectCore` (which hands it its subscription at once): `sink` on them
// attaches a `SubjectSink` (`Publisher._attachesSubscribersToSubject`, which CombineEx's
// `MutableProperty` and `ReplaySubject` also set).

extension PassthroughSubject {
  /// `true`: a `sink` keeps its closures in the subject's subscription.
  @inlinable
  public static var _attachesSubscribersToSubject: Bool { true }
}

extension CurrentValueSubject {
  /// `true`: a `sink` keeps its closures in the subject's subscription.
  @inlinable
  public static var _attachesSubscribersToSubject: Bool { true }
}

// The stateless links pass their subscriber up, wrapped, before `receive(subscriber:)` returns.
extension Publishers.Map {
  /// Whether the upstream attaches its subscribers to a subject.
  @inlinable
  public static var _attachesSubscribersToSubject: Bool {
    Upstream._attachesSubscribersToSubject
  }
}

extension Publishers.Filter {
  /// Whether the upstream attaches its subscribers to a subject.
  @inlinable
  public static var _attachesSubscribersToSubject: Bool {
    Upstream._attachesSubscribersToSubject
  }
}

extension Publishers.CompactMap {
  /// Whether the upstream attaches its subscribers to a subject.
  @inlinable
  public static var _attachesSubscribersToSubject: Bool {
    Upstream._attachesSubscribersToSubject
  }
}

extension Publisher {
  /// `sink` on a publisher that attaches its subscribers to a subject: attaches a ``SubjectSink`` and returns an
  /// `AnyCancellable` that holds the subject's subscription.
  ///
  /// (`package`: CombineEx's `Property` calls it for a property whose subscribers attach to a
  /// subject core, which only its instances with a storage know.)
  @inlinable
  package func attachSubjectSink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    var subscription: (any AnyObject & Subscription)?
    withUnsafeMutablePointer(to: &subscription) { slot in
      receive(
        subscriber: SubjectSink(
          receiveValue: receiveValue, receiveCompletion: receiveCompletion,
          subscriptionSlot: slot))
    }
    guard let subscription else {
      preconditionFailure("CombineEx: a subject did not hand a new sink its subscription")
    }
    return AnyCancellable(object: subscription)
  }
}
