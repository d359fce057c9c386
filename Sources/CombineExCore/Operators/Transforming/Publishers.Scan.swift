extension Publisher {
  /// Transforms elements from the upstream publisher by providing the current element to a
  /// closure along with the last value returned by the closure.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4].publisher
  ///   .scan(0, +)
  ///   .sink { print($0) }
  /// // Prints: 1, 3, 6, 10
  /// ```
  ///
  /// Unlike ``reduce(_:_:)``, which publishes only the final result, `scan` publishes every
  /// intermediate result. Demand passes straight through: one result per upstream element.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
    -> Publishers.Scan<Self, T>
  {
    Publishers.Scan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that transforms elements from the upstream publisher by providing the current
  /// element to a closure along with the last value returned by the closure.
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The previous result, passed to the closure with the first element.
    public let initialResult: Output

    /// A closure that takes the previous result and the next element from the upstream
    /// publisher to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher that publishes each partial result of folding the elements of
    /// `upstream` with `nextPartialResult`.
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber. Each subscription starts again from `initialResult`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Upstream.Failure == S.Failure {
      let nextPartialResult = self.nextPartialResult
      let logic = ScanLogic<Upstream.Output, Output, Failure, Failure>(
        variant: .scan, initialState: initialResult,
        step: { .success(nextPartialResult($0, $1)) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `scan` and `tryScan`: fold each element into the accumulator and emit it; a failing step
/// fails.
@usableFromInline
struct ScanLogic<Input, Output, UpstreamFailure: Error, Failure: Error>: OperatorLogic {
  /// Which of the two operators: Combine builds them differently, and it shows at the edges.
  @usableFromInline
  enum Variant {
    /// `scan`.
    case scan
    /// `tryScan`.
    case tryScan
  }

  @usableFromInline let variant: Variant
  /// The state is the accumulator; it starts from the initial result.
  @usableFromInline let initialState: Output
  @usableFromInline let step: (Output, Input) -> Result<Output, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure

  @inlinable
  init(
    variant: Variant, initialState: Output,
    step: @escaping (Output, Input) -> Result<Output, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.variant = variant
    self.initialState = initialState
    self.step = step
    self.convertFailure = convertFailure
  }

  @inlinable
  var name: String {
    switch variant {
    case .scan: "Scan"
    case .tryScan: "TryScan"
    }
  }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched); a completion before it is passed on by
  /// `scan` and ignored by `tryScan`.
  @inlinable
  var misusePolicy: MisusePolicy {
    switch variant {
    case .scan: .notesEarlyCancel.endingOnEarlyCompletion
    case .tryScan: .notesEarlyCancel
    }
  }

  /// As in Combine: `tryScan` also shows its status.
  @usableFromInline
  func mirrorChildren(_ accumulator: Output, _ context: OperatorMirrorContext) -> [Mirror.Child] {
    switch variant {
    case .scan:
      [("downstream", context.downstream), ("result", accumulator)]
    case .tryScan:
      [("downstream", context.downstream), ("status", context.status), ("result", accumulator)]
    }
  }

  @inlinable
  func receive(_ input: Input, _ accumulator: inout Output) -> OperatorStep<Output, Failure> {
    switch step(accumulator, input) {
    case .success(let next):
      accumulator = next
      return .emit(next)
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Output, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
