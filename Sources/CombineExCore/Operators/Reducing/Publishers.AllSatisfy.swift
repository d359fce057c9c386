extension Publisher {
  /// Publishes a single Boolean value that indicates whether all received elements pass a
  /// given predicate.
  ///
  /// ```swift
  /// let cancellable = [2, 4, 6].publisher
  ///   .allSatisfy { $0.isMultiple(of: 2) }
  ///   .sink { print($0) }
  /// // Prints: true
  /// ```
  ///
  /// The operator requests unlimited elements. On the first element that fails the predicate it
  /// cancels the upstream and publishes `false`; if the upstream finishes first (or is empty),
  /// it publishes `true`. A failure is passed on without a value.
  public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
    Publishers.AllSatisfy(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes a single Boolean value that indicates whether all received
  /// elements pass a given predicate.
  public struct AllSatisfy<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: whether every element passed.
    public typealias Output = Bool

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that evaluates each received element.
    ///
    /// Return `true` to continue, or `false` to cancel the upstream and finish with `false`.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that tells whether every element of `upstream` matches
    /// `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == Bool {
      let predicate = self.predicate
      let logic = AllSatisfyLogic<Upstream.Output, Failure, Failure>(
        name: "AllSatisfy", passes: { .success(predicate($0)) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `allSatisfy` and `tryAllSatisfy`: stop at the first element that fails with `false`;
/// publish `true` if the upstream finishes first; a throwing predicate fails.
@usableFromInline
struct AllSatisfyLogic<Input, UpstreamFailure: Error, Failure: Error>: ReducingLogic {
  @usableFromInline let name: String
  @usableFromInline let passes: (Input) -> Result<Bool, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure

  @inlinable
  init(
    name: String, passes: @escaping (Input) -> Result<Bool, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.name = name
    self.passes = passes
    self.convertFailure = convertFailure
  }

  /// Every element passed: the upstream finished without a counterexample.
  @inlinable
  func result(_: Void) -> Bool? { true }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Bool, Failure> {
    switch passes(input) {
    case .success(true):
      return .consume
    case .success(false):
      return .finish(publishing: false)
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Bool, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
