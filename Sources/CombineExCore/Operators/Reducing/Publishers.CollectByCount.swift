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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
      upstream.subscribe(
        OperatorDriver(
          CollectByCountLogic<Upstream.Output, Failure>(count: count), downstream: subscriber))
    }
  }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

/// `collect(_:)`: fills a batch of `count` elements and publishes it; asks the upstream for
/// `count` elements per array the downstream asks for.
@usableFromInline
struct CollectByCountLogic<Input, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure
  @usableFromInline let count: Int

  @inlinable
  init(count: Int) {
    self.count = count
  }

  @inlinable
  var name: String { "CollectByCount" }

  /// The state: the batch being filled.
  @inlinable
  var initialState: [Input] { [] }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched), a completion before it is passed on,
  /// and a request of zero is an API violation.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel.endingOnEarlyCompletion.trappingZeroDemand }

  @usableFromInline
  func mirrorChildren(_ batch: [Input], _ context: OperatorMirrorContext) -> [Mirror.Child] {
    [
      ("downstream", context.downstream), ("upstreamSubscription", context.upstream),
      ("buffer", batch), ("count", count),
    ]
  }

  @inlinable
  func receive(_ input: Input, _ batch: inout [Input]) -> OperatorStep<[Input], Failure> {
    batch.append(input)
    // A partial batch asks for nothing: the demand for its remaining elements was made when the
    // downstream asked for the array.
    guard batch.count >= count else { return .consume }
    defer { batch = [] }
    return .emit(batch)
  }

  @inlinable
  func receive(
    completion: Subscribers.Completion<Failure>, _ batch: inout [Input]
  ) -> OperatorEnding<[Input], Failure> {
    defer { batch = [] }
    // Like Combine: the partial batch is published on `.finished` and dropped on failure.
    if case .finished = completion, !batch.isEmpty { return .last(batch) }
    return .completion(completion)
  }

  @inlinable
  func returning(_ demand: Subscribers.Demand, isLive: () -> Bool) -> Subscribers.Demand {
    demand * count
  }

  @inlinable
  func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?) {
    upstream?.request(demand * count)
  }
}
