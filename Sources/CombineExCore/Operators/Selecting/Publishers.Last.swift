extension Publisher {
  /// Publishes the last element of a stream, after the stream finishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .last()
  ///   .sink { print($0) }
  /// // Prints: 3
  /// ```
  ///
  /// The operator requests unlimited elements and keeps the latest; when the upstream finishes
  /// it publishes it, then finishes. An empty upstream just finishes; a failure is passed on
  /// without a value.
  public func last() -> Publishers.Last<Self> {
    Publishers.Last(upstream: self)
  }
}

extension Publishers {
  /// A publisher that waits until after the stream finishes, and then publishes the last
  /// element of the stream.
  public struct Last<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes the last element of `upstream`.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Output == S.Input {
      let logic = LastLogic<Output, Failure, Failure>(
        name: "Last", matches: { _ in .success(true) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

/// `last()`, `last(where:)` and `tryLast(where:)`: keep the latest match and publish it at the
/// end; a throwing predicate fails.
@usableFromInline
struct LastLogic<Input, UpstreamFailure: Error, Failure: Error>: ReducingLogic {
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

  /// The state: the latest matching element.
  @inlinable
  var initialState: Input? { nil }

  @inlinable
  func result(_ latest: Input?) -> Input? { latest }

  @inlinable
  func receive(_ input: Input, _ latest: inout Input?) -> OperatorStep<Input, Failure> {
    switch matches(input) {
    case .success(let matched):
      if matched { latest = input }
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
