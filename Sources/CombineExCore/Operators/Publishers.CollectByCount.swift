extension Publisher {
  /// Collects up to the specified number of elements, and then emits a single array of the
  /// collection.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4, 5].publisher
  ///   .collect(2)
  ///   .sink { print($0) }
  /// // Prints: [1, 2], [3, 4], [5]
  /// ```
  ///
  /// Each array counts as one value against the subscriber's demand: a demand of `n` arrays
  /// becomes a demand of `n * count` elements upstream. When the upstream finishes, a partly
  /// filled array is published before the completion. When the upstream fails, the buffered
  /// elements are dropped and the failure is passed on, as in Combine.
  ///
  /// - Parameter count: The maximum number of received elements to buffer before publishing;
  ///   it must be positive.
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that buffers a maximum number of items.
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: arrays of up to `count` elements.
    public typealias Output = [Upstream.Output]

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of received elements to buffer before publishing.
    public let count: Int

    /// Creates a publisher that publishes the elements of `upstream` in arrays of `count`
    /// (the last one possibly shorter). `count` must be positive.
    public init(upstream: Upstream, count: Int) {
      checkAPI(
        count > 0,
        "collect(\(count)): the count must be positive, or no array could ever be published.")
      self.upstream = upstream
      self.count = count
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
      upstream.receive(
        subscriber: CollectByCountSubscription<S, Upstream.Output>(
          count: count, downstream: subscriber))
    }
  }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

/// The subscription of `collect(_:)`: it buffers elements, publishes every full buffer, and
/// multiplies the downstream's demand (counted in arrays) by `count` on its way upstream.
// @unchecked Sendable: `status`, `downstream`, `buffer` and `cancelled` are guarded by `lock`.
final class CollectByCountSubscription<Downstream: Subscriber, Element>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == [Element] {
  typealias Input = Element
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  private var buffer: [Element] = []
  private let count: Int
  /// Whether the downstream cancelled (checked after the last, partial array is delivered).
  private var cancelled = false

  init(count: Int, downstream: Downstream) {
    self.count = count
    self.downstream = downstream
  }

  var description: String { "CollectByCount" }

  // MARK: Subscriber (upstream side)

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Element) -> Subscribers.Demand {
    let full = lock.withLock { () -> (batch: [Element], downstream: Downstream)? in
      guard status.isSubscribed, let downstream = self.downstream else { return nil }
      buffer.append(input)
      guard buffer.count >= count else { return nil }
      defer { buffer = [] }
      return (buffer, downstream)
    }
    // A partial buffer asks for nothing: the demand for its remaining elements was made when
    // the downstream asked for the array.
    guard let full else { return .none }
    return full.downstream.receive(full.batch) * count
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let ending = lock.withLock { () -> (rest: [Element], downstream: Downstream)? in
      guard status.isSubscribed, let downstream = self.downstream else { return nil }
      status = .terminated
      self.downstream = nil
      defer { buffer = [] }
      return (buffer, downstream)
    }
    guard let ending else { return }
    // Like Combine: the partial buffer is published on `.finished` and dropped on failure.
    if case .finished = completion, !ending.rest.isEmpty {
      _ = ending.downstream.receive(ending.rest)
      // A cancel from inside `receive(_:)` keeps the completion from being sent.
      if lock.withLock({ cancelled }) { return }
    }
    ending.downstream.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(demand * count)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      cancelled = true
      guard case .subscribed(let upstream) = status else { return nil }
      status = .terminated
      downstream = nil
      buffer = []
      return upstream
    }
    upstream?.cancel()
  }
}
