extension Publisher {
  /// Replaces an empty stream with the provided element.
  ///
  /// If the upstream finishes without publishing any element, this publisher publishes
  /// `output` and then finishes.
  ///
  /// ```swift
  /// let cancellable = Empty<Double, Never>()
  ///   .replaceEmpty(with: Double.nan)
  ///   .sink { print($0) }
  /// // Prints: nan
  /// ```
  ///
  /// Demand passes straight through; the replacement, like any value, is only delivered once
  /// the subscriber has asked for something (so a subscriber that has requested nothing yet
  /// receives it, and `.finished`, with its first request). A failure is passed on unchanged,
  /// without the replacement.
  ///
  /// Combine requests unlimited elements from the upstream whatever the subscriber's demand;
  /// this implementation keeps to the subscriber's demand instead, so that it never delivers
  /// more values than were requested.
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces an empty stream with a provided element.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The element to deliver when the upstream publisher finishes without delivering any
    /// elements.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes `output` if `upstream` finishes empty.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(
        OperatorDriver(
          ReplaceEmptyLogic<Output, Failure>(output: output), downstream: subscriber))
    }
  }
}

extension Publishers.ReplaceEmpty: Equatable
where Upstream: Equatable, Upstream.Output: Equatable {}

/// `replaceEmpty(with:)`: passes values and demand through, remembers whether a value came,
/// and when the upstream finishes empty publishes the replacement as soon as the downstream has
/// asked for anything.
@usableFromInline
struct ReplaceEmptyLogic<Input, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure
  @usableFromInline let output: Input

  @inlinable
  init(output: Input) {
    self.output = output
  }

  @inlinable
  var name: String { "ReplaceEmpty" }

  /// The replacement follows no value: any request covers it.
  @inlinable
  var demandTracking: DemandTracking { .requested }

  /// A request of zero is an API violation, as in Combine. A cancel before the upstream's
  /// subscription ends the operator (rule 3), where Combine ignores it and then asks the
  /// subscription that arrives for everything (Docs/Core.md lists the difference).
  @inlinable
  var misusePolicy: MisusePolicy { .standard.trappingZeroDemand }

  /// The state: whether the upstream has published a value.
  @inlinable
  var initialState: Bool { false }

  @inlinable
  func receive(_ input: Input, _ receivedValue: inout Bool) -> OperatorStep<Input, Failure> {
    receivedValue = true
    return .emit(input)
  }

  @inlinable
  func receive(
    completion: Subscribers.Completion<Failure>, _ receivedValue: inout Bool
  ) -> OperatorEnding<Input, Failure> {
    guard case .finished = completion, !receivedValue else { return .completion(completion) }
    return .result(output)
  }
}
