import CombineExCore

/// How a ``PropertyCombination`` pairs the values of its sources.
enum PropertyCombinationStrategy {
  /// Every change of any source publishes the latest value of each (`combineLatest`).
  case latest
  /// The n-th values of the sources are published together (`zip`).
  case zip
}

/// The publisher behind property `combineLatest` and `zip`: it subscribes to every source and
/// publishes arrays of their values, in the sources' order.
///
/// It is simpler than a general `combineLatest`/`zip` because its sources are properties: they
/// never fail and request-driven back-pressure does not matter (a property conflates for a slow
/// subscriber), so each source is asked for every value. Delivery is serial and no lock is held
/// while calling out:
/// - Combinations are queued in the order they were made, under the lock, and delivered by one
///   thread at a time (the *drainer*). A source that changes while a combination is being
///   delivered (from another thread, or re-entrantly from the subscriber) queues its
///   combination behind it, exactly like ``MutableProperty``.
/// - With `.latest`, a subscriber that has no demand left receives the latest combination when
///   it asks again (intermediate ones are dropped, as a property does).
/// - `.latest` finishes once every source finished (or one finished before giving a value);
///   `.zip` finishes once a finished source has no value left to pair, cancelling the others.
struct PropertyCombination<Element>: Publisher {
  typealias Output = [Element]
  typealias Failure = Never

  let sources: [AnyPublisher<Element, Never>]
  let strategy: PropertyCombinationStrategy

  func receive<S: Subscriber>(subscriber: S) where S.Input == [Element], S.Failure == Never {
    guard !sources.isEmpty else {
      Just([]).receive(subscriber: subscriber)
      return
    }
    let subscription = PropertyCombinationSubscription(
      strategy: strategy, sourceCount: sources.count, downstream: subscriber)
    subscriber.receive(subscription: subscription)
    subscription.subscribe(to: sources)
  }
}
