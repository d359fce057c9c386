extension Publisher {
  /// Publishes the number of elements received from the upstream publisher.
  ///
  /// ```swift
  /// let cancellable = ["a", "b", "c"].publisher
  ///   .count()
  ///   .sink { print($0) }
  /// // Prints: 3
  /// ```
  ///
  /// The count is published when the upstream finishes (`0` for an empty upstream); the
  /// operator requests unlimited elements. If the upstream fails, the failure is passed on
  /// without a count.
  public func count() -> Publishers.Count<Self> {
    Publishers.Count(upstream: self)
  }
}

extension Publishers {
  /// A publisher that publishes the number of elements received from the upstream publisher.
  public struct Count<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: a count.
    public typealias Output = Int

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that counts the elements of `upstream`.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == Int {
      upstream.subscribe(
        OperatorDriver(CountLogic<Upstream.Output, Failure>(), downstream: subscriber))
    }
  }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

/// `count()`: count every element; publish the count at the end.
@usableFromInline
struct CountLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure

  @inlinable
  init() {}

  @inlinable
  var name: String { "Count" }

  /// The state: the number of elements so far.
  @inlinable
  var initialState: Int { 0 }

  @inlinable
  func result(_ count: Int) -> Int? { count }

  @inlinable
  func receive(_ input: Input, _ count: inout Int) -> OperatorStep<Int, Failure> {
    count += 1
    return .consume
  }
}
