/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// Nothing runs when the `Deferred` is created: each subscription calls `createPublisher` once
/// and attaches the subscriber to the publisher it returns. Use it to postpone work until
/// someone listens, or to give every subscriber its own, independent run of an eager publisher
/// such as ``Future``.
///
/// ```swift
/// var runs = 0
/// let deferred = Deferred { () -> Just<Int> in
///   runs += 1
///   return Just(runs)
/// }
/// print(runs)  // Prints: 0
/// let first = deferred.sink { print($0) }  // Prints: 1
/// let second = deferred.sink { print($0) }  // Prints: 2
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  /// The kind of values published by this publisher: the created publisher's.
  public typealias Output = DeferredPublisher.Output

  /// The kind of errors this publisher might publish: the created publisher's.
  public typealias Failure = DeferredPublisher.Failure

  /// The closure to execute when this deferred publisher receives a subscription.
  ///
  /// The publisher it returns immediately receives the incoming subscriber.
  public let createPublisher: () -> DeferredPublisher

  /// Creates a deferred publisher.
  ///
  /// - Parameter createPublisher: The closure to execute for each new subscriber.
  public init(createPublisher: @escaping () -> DeferredPublisher) {
    self.createPublisher = createPublisher
  }

  /// Creates a publisher with `createPublisher` and attaches the subscriber to it.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    createPublisher().receive(subscriber: subscriber)
  }
}
