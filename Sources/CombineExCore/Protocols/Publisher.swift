import Synchronization

/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's
/// `Input` and `Failure` must match the publisher's `Output` and `Failure`. Nothing flows until a
/// subscriber attaches and requests values with ``Subscription/request(_:)``.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///   .map { $0 * 10 }
///   .sink { print($0) }
/// // Prints: 10, 20, 30
/// ```
///
/// Implement ``receive(subscriber:)`` to create a publisher of your own; call
/// ``subscribe(_:)-5njf1`` to attach a subscriber (it is the same call under a public name).
public protocol Publisher<Output, Failure> {
  /// The kind of values published by this publisher.
  associatedtype Output

  /// The kind of errors this publisher might publish. Use `Never` if it never fails.
  associatedtype Failure: Error

  /// Attaches the specified subscriber to this publisher.
  ///
  /// Implementations must call the subscriber's ``Subscriber/receive(subscription:)`` exactly
  /// once, and then deliver at most as many values as the subscriber requests.
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure

  /// Whether every subscriber is attached, before ``receive(subscriber:)`` returns, to a
  /// subject of the library that hands it its subscription at once: `PassthroughSubject`,
  /// `CurrentValueSubject`, CombineEx's `MutableProperty` and `ReplaySubject`, or `map`,
  /// `filter` or `compactMap` of one.
  ///
  /// An implementation detail of `sink`, which then keeps its closures in the subject's own
  /// subscription instead of a `Subscribers.Sink`. Not part of Combine's API: never implement
  /// it; the default is `false`. (A requirement rather than a cast to an internal protocol,
  /// which the runtime resolves on every `sink` call: about 100 instructions each.)
  static var _attachesSubscribersToSubject: Bool { get }
}

extension Publisher {
  /// `false`: a subscriber is not known to be attached to a subject of the library.
  @inlinable
  public static var _attachesSubscribersToSubject: Bool { false }
}

extension Publisher {
  /// Attaches the specified subscriber to this publisher.
  ///
  /// Always call this method, not ``receive(subscriber:)``, to attach a subscriber.
  ///
  /// ```swift
  /// final class FirstTwo: Subscriber {
  ///   typealias Input = Int
  ///   typealias Failure = Never
  ///
  ///   func receive(subscription: any Subscription) {
  ///     subscription.request(.max(2))
  ///   }
  ///
  ///   func receive(_ input: Int) -> Subscribers.Demand {
  ///     print(input)
  ///     return .none
  ///   }
  ///
  ///   func receive(completion: Subscribers.Completion<Never>) {
  ///     print(completion)
  ///   }
  /// }
  ///
  /// [1, 2, 3].publisher.subscribe(FirstTwo())
  /// // Prints: 1, 2 — the subscriber asked for two values, so 3 and the completion wait
  /// ```
  ///
  /// While an `_Introspection` object is enabled, the subscription and every event of the
  /// subscriber are reported to it; otherwise this is one load of a flag and the call.
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    if _slowPath(introspectionIsActive.load(ordering: .relaxed)) {
      subscribeReportingToIntrospection(subscriber)
    } else {
      receive(subscriber: subscriber)
    }
  }
}

extension Publisher {
  /// ``subscribe(_:)``, inlined into the caller: for an operator's `receive(subscriber:)` that
  /// is the last link before the subscriber (`handleCleanup`). The optimizer specializes a
  /// generic function called from its own specialization with a growing type only once, so in
  /// `subject.first().handleCleanup(_:).sink`, the third `subscribe` (the subject's, with
  /// `first()`'s driver) ran unspecialized, and so did the subject's `receive(subscriber:)`,
  /// which then allocated two closure contexts and looked up its types in the runtime's
  /// metadata cache (`j8`: 22,643 to 17,991 instructions per round trip, two allocations
  /// fewer). Not `subscribe(_:)` itself: inlining it everywhere made `subject.map.sink` 12%
  /// slower (`e2`).
  @inlinable
  @inline(__always)
  package func subscribeInlined<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    if _slowPath(introspectionIsActive.load(ordering: .relaxed)) {
      subscribeReportingToIntrospection(subscriber)
    } else {
      receive(subscriber: subscriber)
    }
  }
}
