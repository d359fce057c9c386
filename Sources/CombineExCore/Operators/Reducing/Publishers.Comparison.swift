extension Publisher where Output: Comparable {
  /// Publishes the minimum value received from the upstream publisher, after it finishes.
  ///
  /// ```swift
  /// let cancellable = [3, 1, 2].publisher
  ///   .min()
  ///   .sink { print($0) }
  /// // Prints: 1
  /// ```
  ///
  /// The operator requests unlimited elements; an empty upstream finishes without a value.
  public func min() -> Publishers.Comparison<Self> {
    min(by: <)
  }

  /// Publishes the maximum value received from the upstream publisher, after it finishes.
  ///
  /// ```swift
  /// let cancellable = [3, 1, 2].publisher
  ///   .max()
  ///   .sink { print($0) }
  /// // Prints: 3
  /// ```
  ///
  /// The operator requests unlimited elements; an empty upstream finishes without a value.
  public func max() -> Publishers.Comparison<Self> {
    max(by: <)
  }
}

extension Publisher {
  /// Publishes the minimum value received from the upstream publisher, after it finishes,
  /// using the provided ordering closure.
  ///
  /// ```swift
  /// let cancellable = ["pear", "fig", "banana"].publisher
  ///   .min { $0.count < $1.count }
  ///   .sink { print($0) }
  /// // Prints: fig
  /// ```
  ///
  /// `areInIncreasingOrder` must be a strict weak ordering. Of several minimal elements, the
  /// first one received is published.
  public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
    -> Publishers.Comparison<Self>
  {
    // The publisher keeps a new element when `areInIncreasingOrder(kept, new)`: swapping the
    // arguments turns "greater" into "smaller".
    Publishers.Comparison(upstream: self) { kept, new in areInIncreasingOrder(new, kept) }
  }

  /// Publishes the maximum value received from the upstream publisher, after it finishes,
  /// using the provided ordering closure.
  ///
  /// ```swift
  /// let cancellable = ["pear", "fig", "banana"].publisher
  ///   .max { $0.count < $1.count }
  ///   .sink { print($0) }
  /// // Prints: banana
  /// ```
  ///
  /// `areInIncreasingOrder` must be a strict weak ordering. Of several maximal elements, the
  /// first one received is published.
  public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
    -> Publishers.Comparison<Self>
  {
    Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

extension Publishers {
  /// A publisher that republishes items from another publisher only if each new item is in
  /// increasing order from the previously-published item.
  ///
  /// It keeps the greatest element by `areInIncreasingOrder` (a new element replaces the kept
  /// one when `areInIncreasingOrder(kept, new)`), and publishes it when the upstream finishes.
  public struct Comparison<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives two elements and returns true if they are in increasing order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

    /// Creates a publisher that publishes the greatest element of `upstream` according to
    /// `areInIncreasingOrder`.
    public init(
      upstream: Upstream,
      areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let areInIncreasingOrder = self.areInIncreasingOrder
      let logic = ComparisonLogic<Output, Failure, Failure>(
        name: "Comparison", isReplacedBy: { .success(areInIncreasingOrder($0, $1)) },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `min`, `max` and their `try` variants: keep the element that `isReplacedBy` says nothing
/// received later beats; a throwing comparison fails.
@usableFromInline
struct ComparisonLogic<Input, UpstreamFailure: Error, Failure: Error>: ReducingLogic {
  @usableFromInline let name: String
  /// Whether the new element (second argument) replaces the kept one (first argument).
  @usableFromInline let isReplacedBy: (Input, Input) -> Result<Bool, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure

  @inlinable
  init(
    name: String, isReplacedBy: @escaping (Input, Input) -> Result<Bool, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.name = name
    self.isReplacedBy = isReplacedBy
    self.convertFailure = convertFailure
  }

  /// The state: the element kept so far.
  @inlinable
  var initialState: Input? { nil }

  @inlinable
  func result(_ kept: Input?) -> Input? { kept }

  @inlinable
  func receive(_ input: Input, _ kept: inout Input?) -> OperatorStep<Input, Failure> {
    guard let current = kept else {
      kept = input
      return .consume
    }
    switch isReplacedBy(current, input) {
    case .success(let replaced):
      if replaced { kept = input }
      return .consume
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Input, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
