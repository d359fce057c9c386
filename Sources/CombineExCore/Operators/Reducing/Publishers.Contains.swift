extension Publisher where Output: Equatable {
  /// Publishes a Boolean value upon receiving an element equal to the argument.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4].publisher
  ///   .contains(2)
  ///   .sink { print($0) }
  /// // Prints: true
  /// ```
  ///
  /// The operator requests unlimited elements. On the first matching element it cancels the
  /// upstream and publishes `true`; if the upstream finishes without one (or is empty), it
  /// publishes `false`. A failure is passed on without a value.
  public func contains(_ output: Output) -> Publishers.Contains<Self> {
    Publishers.Contains(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that emits a Boolean value when a specified element is received from its
  /// upstream publisher.
  public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
    /// The kind of values published by this publisher: whether the element was found.
    public typealias Output = Bool

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The element to scan for in the upstream publisher.
    public let output: Upstream.Output

    /// Creates a publisher that tells whether `upstream` publishes `output`.
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == Bool {
      let output = self.output
      let logic = ContainsLogic<Upstream.Output, Failure, Failure>(
        name: "Contains", matches: { .success($0 == output) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

/// `contains`, `contains(where:)` and `tryContains(where:)`: stop at the first match with
/// `true`; publish `false` if the upstream finishes first; a throwing predicate fails.
@usableFromInline
struct ContainsLogic<Input, UpstreamFailure: Error, Failure: Error>: ReducingLogic {
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

  /// The upstream finished without a match.
  @inlinable
  func result(_: Void) -> Bool? { false }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Bool, Failure> {
    switch matches(input) {
    case .success(true):
      return .finish(publishing: true)
    case .success(false):
      return .consume
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Bool, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
