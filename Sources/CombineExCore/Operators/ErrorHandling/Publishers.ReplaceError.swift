extension Publisher {
  /// Replaces any errors in the stream with the provided element.
  ///
  /// If the upstream fails, this publisher publishes `output` and then finishes normally.
  ///
  /// ```swift
  /// struct Broken: Error {}
  /// let subject = PassthroughSubject<Int, Broken>()
  /// let cancellable = subject
  ///   .replaceError(with: -1)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// subject.send(1)
  /// subject.send(completion: .failure(Broken()))
  /// // Prints: 1, -1, finished
  /// ```
  ///
  /// Like Combine, the operator keeps count of the subscriber's outstanding demand: if the
  /// upstream fails while none is left, the replacement waits for the next request. The
  /// result can never fail (`Failure == Never`).
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces any errors in the stream with a provided element.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: none, since errors are replaced.
    public typealias Failure = Never

    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces a failure of `upstream` with `output`.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Failure {
      upstream.subscribe(
        OperatorDriver(
          ReplaceErrorLogic<Output, Upstream.Failure>(output: output), downstream: subscriber))
    }
  }
}

extension Publishers.ReplaceError: Equatable
where Upstream: Equatable, Upstream.Output: Equatable {}

/// `replaceError(with:)`: passes values and demand through, counting the downstream's
/// outstanding demand, and turns the upstream's failure into the replacement value (delivered
/// at once if demand is outstanding, otherwise on the next request) followed by `.finished`.
@usableFromInline
struct ReplaceErrorLogic<Input, UpstreamFailure: Error>: OperatorLogic {
  @usableFromInline
  typealias Failure = Never
  @usableFromInline let output: Input

  @inlinable
  init(output: Input) {
    self.output = output
  }

  @inlinable
  var name: String { "ReplaceError" }

  /// Values went out before the failure: the replacement needs demand left over.
  @inlinable
  var demandTracking: DemandTracking { .outstanding }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Never> {
    .emit(input)
  }

  /// The failure is replaced: the value waits for demand, then `.finished`.
  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Input, Never> {
    .result(output)
  }
}
