extension Publisher {
  /// Publishes the first element of a stream, then finishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .first()
  ///   .sink { print($0) }
  /// // Prints: 1
  /// ```
  ///
  /// The operator requests unlimited elements; on the first one it cancels the upstream and
  /// publishes it (as soon as the subscriber has demand), then finishes. An empty upstream just
  /// finishes; a failure is passed on.
  public func first() -> Publishers.First<Self> {
    Publishers.First(upstream: self)
  }
}

extension Publishers {
  /// A publisher that publishes the first element of a stream, then finishes.
  public struct First<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes the first element of `upstream`.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Output == S.Input {
      let logic = FirstLogic<Output, Failure, Failure>(
        name: "First", matches: { _ in .success(true) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

/// `first()`, `first(where:)` and `tryFirst(where:)`: stop at the first match and publish it;
/// publish nothing if the upstream finishes first; a throwing predicate fails.
@usableFromInline
struct FirstLogic<Input, UpstreamFailure: Error, Failure: Error>: ReducingLogic {
  @usableFromInline let name: String
  @usableFromInline let matches: (Input) -> Result<Bool, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure

  @inlinable
  init(
    name: String, matches: @escaping (Input) -> Result<Bool, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.name = name
    self.matches = matches
    self.convertFailure = convertFailure
  }

  /// The upstream finished without a match: nothing to publish.
  @inlinable
  func result(_: Void) -> Input? { nil }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Failure> {
    switch matches(input) {
    case .success(true):
      return .finish(publishing: input)
    case .success(false):
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
