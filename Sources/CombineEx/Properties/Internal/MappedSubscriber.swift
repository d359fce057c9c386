import CombineExCore

/// A subscriber of a fused `map` (``PropertySourceAttachment``), attached to its source's subject
/// core in its place: each value of the source it receives is replaced by the mapped value that
/// the map's relay, attached to the same core before it, has just stored in the map's cell.
///
/// So a change of the source reaches every subscriber of the map in one delivery of the source's
/// core, and the transform still runs once per change (in the relay), where the map's own core
/// took a second lock round trip and delivery token per change (Benchmarks' j6).
///
/// Why the mapped value can be read without the cell's lock: the relay stores it, and this
/// subscriber reads it, only while holding the source core's delivery token, which serializes
/// them (other threads read the value under the lock; the relay writes it under the lock). The
/// subscriber keeps the map's storage alive, which holds the cell and the relay's subscription,
/// as a subscriber attached to the storage itself would.
///
/// `Releasing` says whether the downstream releases its subscription when the stream ends
/// (``SubscriptionReleasing``), for the core to choose its borrowing conduit.
@usableFromInline
struct MappedSubscriber<Input, Output, Releasing>: Subscriber {
  @usableFromInline
  typealias Failure = Never

  /// The map's subscriber, with its type erased, and the map's storage.
  @usableFromInline
  let downstream: MappedDownstream<Output>

  @inlinable
  init(downstream: MappedDownstream<Output>) {
    self.downstream = downstream
  }

  @inlinable
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.entries.receiveSubscription(downstream, subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    // The entry reads the value the relay stored in this delivery (see above), in code
    // specialized for the subscriber: an entry taking the value as an argument would take it
    // at the generic abstraction, through a reabstraction thunk per call (Benchmarks' j6).
    downstream.entries.receiveValue(downstream)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Never>) {
    downstream.entries.receiveCompletion(downstream, completion)
  }

  @inlinable
  func _receive(subscriptionReportingDetach subscription: any Subscription) {
    downstream.entries.receiveSubscriptionReportingDetach(downstream, subscription)
  }

  @inlinable
  func _upstreamDetached() {
    downstream.entries.upstreamDetached(downstream)
  }
}

/// The `Releasing` of a ``MappedSubscriber`` whose downstream releases its subscription.
@usableFromInline
enum ReleasingDownstream {}

/// The `Releasing` of a ``MappedSubscriber`` whose downstream is not known to.
@usableFromInline
enum RetainingDownstream {}

extension MappedSubscriber: SubscriptionReleasing where Releasing == ReleasingDownstream {}

/// A subscriber of a fused map, its type erased: ``MappedSubscriber`` is made where the source's
/// type is known (the `map` call), the subscriber where the map's subscriber's type is known
/// (``PropertyStorage/receive(subscriber:)``). Each event goes through an entry made in
/// ``MappedDownstreamTo``'s initializer, specialized for the subscriber, which takes this object
/// as its argument and captures nothing.
@usableFromInline
class MappedDownstream<Output> {
  @usableFromInline
  let entries: MappedDownstreamEntries<Output>

  @usableFromInline
  let combineIdentifier: CombineIdentifier

  /// The map's storage, kept alive by its subscriber (as one attached to the storage's core
  /// keeps it), and its cell, which holds the mapped value of the source's latest delivery.
  @usableFromInline
  let storage: PropertyStorage<Output>

  @usableFromInline
  let cell: PropertyCell<Output>

  @inlinable
  init(
    entries: MappedDownstreamEntries<Output>, combineIdentifier: CombineIdentifier,
    storage: PropertyStorage<Output>
  ) {
    self.entries = entries
    self.combineIdentifier = combineIdentifier
    self.storage = storage
    cell = storage.cell
  }
}

/// The entries of a ``MappedDownstream``: one per event of `Subscriber`.
@usableFromInline
struct MappedDownstreamEntries<Output> {
  @usableFromInline
  let receiveSubscription: (MappedDownstream<Output>, any Subscription) -> Void

  @usableFromInline
  let receiveSubscriptionReportingDetach: (MappedDownstream<Output>, any Subscription) -> Void

  /// Delivers the cell's value (the source's token holder only).
  @usableFromInline
  let receiveValue: (MappedDownstream<Output>) -> Subscribers.Demand

  @usableFromInline
  let receiveCompletion: (MappedDownstream<Output>, Subscribers.Completion<Never>) -> Void

  @usableFromInline
  let upstreamDetached: (MappedDownstream<Output>) -> Void

  @inlinable
  init(
    receiveSubscription: @escaping (MappedDownstream<Output>, any Subscription) -> Void,
    receiveSubscriptionReportingDetach:
      @escaping (MappedDownstream<Output>, any Subscription) -> Void,
    receiveValue: @escaping (MappedDownstream<Output>) -> Subscribers.Demand,
    receiveCompletion: @escaping (MappedDownstream<Output>, Subscribers.Completion<Never>) -> Void,
    upstreamDetached: @escaping (MappedDownstream<Output>) -> Void
  ) {
    self.receiveSubscription = receiveSubscription
    self.receiveSubscriptionReportingDetach = receiveSubscriptionReportingDetach
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
    self.upstreamDetached = upstreamDetached
  }
}

/// A ``MappedDownstream`` holding a subscriber of type `Downstream`.
@usableFromInline
final class MappedDownstreamTo<Output, Downstream: Subscriber>: MappedDownstream<Output>
where Downstream.Input == Output, Downstream.Failure == Never {
  @usableFromInline
  let subscriber: Downstream

  @inlinable
  init(_ subscriber: Downstream, storage: PropertyStorage<Output>) {
    self.subscriber = subscriber
    super.init(
      entries: MappedDownstreamEntries(
        receiveSubscription: { object, subscription in
          Self.subscriber(of: object).receive(subscription: subscription)
        },
        receiveSubscriptionReportingDetach: { object, subscription in
          Self.subscriber(of: object)._receive(subscriptionReportingDetach: subscription)
        },
        receiveValue: { object in
          Self.subscriber(of: object).receive(object.cell.currentValue)
        },
        receiveCompletion: { object, completion in
          Self.subscriber(of: object).receive(completion: completion)
        },
        upstreamDetached: { object in Self.subscriber(of: object)._upstreamDetached() }),
      combineIdentifier: subscriber.combineIdentifier, storage: storage)
  }

  /// The subscriber of `object`, which is a `Self` (the entries are only made by `init`).
  @inlinable
  static func subscriber(of object: MappedDownstream<Output>) -> Downstream {
    unsafeDowncast(object, to: Self.self).subscriber
  }
}
